import { detectorFinding, scoreConfidence } from "../../findings.js";
import type { DatasetDetector } from "../detector.js";
import { shareBand, shareEvidence } from "../shares.js";
import { pct } from "../values.js";

const BANDS = { low: 0.01, high: 0.05, lowSeverity: "low", highSeverity: "medium" } as const;

/** DS-07: duplicate rows in train: > 5 % medium, > 1 % low. */
export const duplicates: DatasetDetector = {
  info: {
    id: "dataset.duplicates",
    rule: "DS-07",
    title: "Duplicate rows",
    threshold: "duplicate share > 5 % → medium, > 1 % → low",
    severities: ["medium", "low"],
    basis: "Deepchecks DataDuplicates 0.05 [P-Deepchecks]; ydata-profiling 1 %; Barz & Denzler 2020 [K31]",
  },
  detect(stats) {
    const d = stats.duplicates;
    if (!d || d.fraction === null) return [];
    const band = shareBand(d.fraction, BANDS);
    if (!band) return [];
    return [
      detectorFinding({
        id: this.info.id,
        title: "Duplicate rows in the data",
        description: `${pct(d.fraction)} of the rows are exact duplicates. They over-weight some examples and, if they straddle a split, leak training rows into evaluation.`,
        evidence: [shareEvidence(this.info.rule, d, "duplicate rows", band.threshold)],
        severity: band.severity,
        confidence: scoreConfidence({ strength: d.fraction, threshold: band.threshold }),
        recommendation: {
          action: "De-duplicate before splitting, and split by group (entity, source, session) so near-duplicates stay on one side.",
          rationale: "Duplicates inflate evaluation when copies land in both train and test (Barz & Denzler 2020).",
          category: "data",
          effort: "low",
        },
      }),
    ];
  },
};
