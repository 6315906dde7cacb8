import type { AnalyzerPrompt } from "../../llm/prompt-kit.js";

/** What the training analyzer asks the model to look at beyond its detectors (DETECTORS.md §2.1). */
export const trainingPrompt: AnalyzerPrompt = {
  artifact: "the training history of one run: loss and metric curves (summarized with representative points), hyperparameters and log lines",
  focus: [
    "where the validation curve turns: best epoch or step, and how far the end is from the best",
    "the gap between train and validation metrics and whether it keeps growing",
    "instability: spikes, non-finite values, gradient norms, the learning-rate schedule around them",
    "hyperparameters that explain what the curves show (no weight decay, no augmentation, no early stopping, precision)",
    "warnings in the logs that matter for the result (data loader, precision, skipped steps)",
  ],
};
