import { shareDetector } from "../shares.js";

/** DS-10: a label-issue share (e.g. from cleanlab) above the 3.3 % average test-set error rate → medium, > 10 % high. */
export const labelNoise = shareDetector({
  info: {
    id: "dataset.label_noise",
    rule: "DS-10",
    title: "Many likely label errors",
    threshold: "label-issue share > 3.3 % → medium, > 10 % → high",
    severities: ["medium", "high"],
    basis: "Northcutt et al. 2021: 3.3 % average test-set label errors [K22]; confident learning [K21]",
  },
  bands: { low: 0.033, high: 0.1, lowSeverity: "medium", highSeverity: "high" },
  pick: (stats) => stats.labelIssues,
  what: "rows flagged as label issues",
  title: "Many likely label errors",
  describe: (amount) => `${amount} of the rows are flagged as likely mislabelled, above the ~3.3 % found on average in benchmark test sets. Label noise caps accuracy and misleads evaluation.`,
  recommendation: {
    action: "Review the flagged examples first (largest-margin ones), relabel or prune them, and consider a noise-robust loss.",
    rationale: "Noisy labels in test sets change model rankings; in train they cap what the model can learn (Northcutt et al. 2021).",
    category: "data",
    effort: "medium",
  },
  benignPossible: true,
});
