import { shareDetector } from "../shares.js";

/** DS-09: identical features with different labels: any → medium, > 3 % → high. */
export const conflictingLabels = shareDetector({
  info: {
    id: "dataset.conflicting_labels",
    rule: "DS-09",
    title: "Identical inputs with different labels",
    threshold: "conflicting share > 0 → medium, > 3 % → high",
    severities: ["medium", "high"],
    basis: "Deepchecks ConflictingLabels (0 allowed) [P-Deepchecks]; confident learning [K21][K22]",
  },
  bands: { low: 0, high: 0.03, lowSeverity: "medium", highSeverity: "high" },
  pick: (stats) => stats.conflictingLabels,
  what: "rows with conflicting labels",
  title: "Same inputs, different labels",
  describe: (amount) => `${amount} of the rows share identical features but carry different labels: either labelling errors or features that cannot tell the classes apart.`,
  recommendation: {
    action: "Review and adjudicate the conflicting rows (or relabel with confident learning); if both labels are legitimate, add the feature that distinguishes them.",
    rationale: "Contradictory labels cap the accuracy any model can reach and add noise to training (Northcutt et al. 2021).",
    category: "data",
    effort: "medium",
  },
});
