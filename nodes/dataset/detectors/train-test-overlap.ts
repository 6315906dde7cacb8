import { shareDetector } from "../shares.js";

/** DS-08: rows shared between train and an evaluation split: any → medium, > 5 % of the evaluation split → high. */
export const trainTestOverlap = shareDetector({
  info: {
    id: "dataset.train_test_overlap",
    rule: "DS-08",
    title: "Rows shared between train and evaluation",
    threshold: "any overlap → medium; > 5 % of the evaluation split → high",
    severities: ["medium", "high"],
    basis: "Deepchecks TrainTestSamplesMix 5 %; CIFAR: 3.3 %/10 % of test duplicated in train, 9–14 % relative accuracy drop [K31]",
  },
  bands: { low: 0, high: 0.05, lowSeverity: "medium", highSeverity: "high" },
  pick: (stats) => stats.trainTestOverlap,
  what: "rows shared between train and evaluation",
  title: "Evaluation rows also appear in train",
  describe: (amount) => `${amount} of the evaluation rows also appear in the training data, so the evaluation partly measures memorization and overstates performance.`,
  recommendation: {
    action: "Remove the shared rows from the evaluation split (or split by group or time) and re-evaluate on the clean split.",
    rationale: "Test rows seen in training inflate scores; removing CIFAR's near-duplicates cut accuracy by 9–14 % relative (Barz & Denzler 2020).",
    category: "data",
    effort: "low",
  },
});
