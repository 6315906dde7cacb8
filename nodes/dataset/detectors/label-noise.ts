import { detectorFinding, scoreConfidence } from "../../findings.js";
import type { DatasetDetector } from "../detector.js";
import { shareBand, shareEvidence } from "../shares.js";
import { pct } from "../values.js";

const BANDS = { low: 0.033, high: 0.1, lowSeverity: "medium", highSeverity: "high" } as const;

/** DS-10: a label-issue fraction (e.g. from cleanlab) above the 3.3 % average test-set error rate → medium, > 10 % high. */
export const labelNoise: DatasetDetector = {
  info: {
    id: "dataset.label_noise",
    rule: "DS-10",
    title: "Many likely label errors",
    threshold: "label-issue share > 3.3 % → medium, > 10 % → high",
    severities: ["medium", "high"],
    basis: "Northcutt et al. 2021: 3.3 % average test-set label errors [K22]; confident learning [K21]",
  },
  detect(stats) {
    const l = stats.labelIssues;
    if (!l || l.fraction === null) return [];
    const band = shareBand(l.fraction, BANDS);
    if (!band) return [];
    return [
      detectorFinding({
        id: this.info.id,
        title: "Many likely label errors",
        description: `${pct(l.fraction)} of the rows are flagged as likely mislabelled, above the ~3.3 % found on average in benchmark test sets. Label noise caps accuracy and misleads evaluation.`,
        evidence: [shareEvidence(this.info.rule, l, "rows flagged as label issues", band.threshold)],
        severity: band.severity,
        confidence: scoreConfidence({ strength: l.fraction, threshold: band.threshold, benignPossible: true }),
        recommendation: {
          action: "Review the flagged examples first (largest-margin ones), relabel or prune them, and consider a noise-robust loss.",
          rationale: "Noisy labels in test sets change model rankings; in train they cap what the model can learn (Northcutt et al. 2021).",
          category: "data",
          effort: "medium",
        },
      }),
    ];
  },
};
