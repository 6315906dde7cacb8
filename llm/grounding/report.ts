import { GROUNDING_REASONS, type GroundingReason, type GroundingReport, type LanguageCheck } from "../../domain/grounding.js";

/** Every reason at zero: each tally starts from a copy, not from the entries built again. */
const NO_REASONS = Object.fromEntries(GROUNDING_REASONS.map((r) => [r, 0])) as Record<GroundingReason, number>;

/** Counts one answer's checks as the pass goes. */
export class GroundingTally {
  private checked = 0;
  private grounded = 0;
  private readonly reasons = { ...NO_REASONS };
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
