import { z } from "zod";

/** Why a sentence or an item of a model answer was removed by the grounding pass (llm/grounding/). */
export const GROUNDING_REASONS = ["number", "unknown_id", "severity", "language"] as const;
export type GroundingReason = (typeof GROUNDING_REASONS)[number];

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
