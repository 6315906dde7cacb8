import type { AnalyzerPrompt } from "../../llm/prompt-kit.js";

/** What the data-checks analyzer asks the model to look at beyond its detectors (DETECTORS.md §2.3). */
export const checksPrompt: AnalyzerPrompt = {
  artifact: "data-check reports (Deepchecks, Evidently, Great Expectations, TFDV): each check's status, condition and numbers",
  focus: [
    "which failed or warned checks share one cause (for example several image-property drifts caused by one capture change)",
    "how large a drift really is: the statistic against its threshold, and the domain-classifier AUC when given",
    "leakage signals: train/test sample mix, identifier or date columns predicting the label, correlation changes",
    "checks that passed only because of a lenient setting (mostly, thresholds) and checks that could not run",
    "suites that are missing altogether, so a pass says nothing about them",
  ],
};
