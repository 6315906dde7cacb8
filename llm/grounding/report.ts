import { z } from "zod";
import { GROUNDING_REASONS, type GroundingReason } from "./claims.js";

/** How the language of an answer was checked: what was asked, what was read, and what happened. */
export const LanguageCheckSchema = z.object({
  expected: z.string(),
  /** ISO 639-1 code franc read in the model's text, or null when the text was too short to tell. */
  detected: z.string().nullable(),
  /** ok: as asked (or too short to tell); retried: right after one firmer retry; fallback: deterministic text kept. */
  outcome: z.enum(["ok", "retried", "fallback", "unchecked"]),
});
export type LanguageCheck = z.infer<typeof LanguageCheckSchema>;

/** What the grounding pass did to one agent's answer (additional_outputs.grounding[agent]); never the removed text. */
export const GroundingReportSchema = z.object({
  /** Sentences and structured claims (cited ids, assigned severities) checked. */
  checked: z.number().int(),
  grounded: z.number().int(),
  removed: z.number().int(),
  /** Removed claims by the first check they failed. */
  reasons: z.record(z.enum(GROUNDING_REASONS), z.number().int()),
  /** The model's own findings dropped because a claim they rest on failed. */
  dropped_findings: z.number().int(),
  language: LanguageCheckSchema,
});
export type GroundingReport = z.infer<typeof GroundingReportSchema>;

/** Counts one answer's checks as the pass goes. */
export class GroundingTally {
  private checked = 0;
  private grounded = 0;
  private readonly reasons = Object.fromEntries(GROUNDING_REASONS.map((r) => [r, 0])) as Record<GroundingReason, number>;
  private dropped = 0;

  constructor(private readonly language: LanguageCheck) {}

  /** Records one claim: null when it held, else why it was removed. */
  count(reason: GroundingReason | null): void {
    this.checked++;
    if (reason === null) this.grounded++;
    else this.reasons[reason]++;
  }

  dropFinding(): void {
    this.dropped++;
  }

  report(): GroundingReport {
    return {
      checked: this.checked,
      grounded: this.grounded,
      removed: this.checked - this.grounded,
      reasons: { ...this.reasons },
      dropped_findings: this.dropped,
      language: this.language,
    };
  }
}
