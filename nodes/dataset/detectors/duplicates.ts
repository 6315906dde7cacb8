import { shareDetector } from "../shares.js";

/** DS-07: duplicate rows in train: > 5 % medium, > 1 % low. */
export const duplicates = shareDetector({
  info: {
    id: "dataset.duplicates",
    rule: "DS-07",
    title: "Duplicate rows",
    threshold: "duplicate share > 5 % → medium, > 1 % → low",
    severities: ["medium", "low"],
    basis: "Deepchecks DataDuplicates 0.05 [P-Deepchecks]; ydata-profiling 1 %; Barz & Denzler 2020 [K31]",
  },
  bands: { low: 0.01, high: 0.05, lowSeverity: "low", highSeverity: "medium" },
  pick: (stats) => stats.duplicates,
  what: "duplicate rows",
  title: "Duplicate rows in the data",
  describe: (amount) => `${amount} of the rows are exact duplicates. They over-weight some examples and, if they straddle a split, leak training rows into evaluation.`,
  recommendation: {
    action: "De-duplicate before splitting, and split by group (entity, source, session) so near-duplicates stay on one side.",
    rationale: "Duplicates inflate evaluation when copies land in both train and test (Barz & Denzler 2020).",
    category: "data",
    effort: "low",
  },
});
