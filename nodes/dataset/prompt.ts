import type { AnalyzerPrompt } from "../../llm/prompt-kit.js";

/** What the dataset analyzer asks the model to look at beyond its detectors (DETECTORS.md §2.2). */
export const datasetPrompt: AnalyzerPrompt = {
  artifact: "the statistics of one dataset: rows and class counts per split, per-column missing values and summary statistics",
  focus: [
    "class mixes that differ between train, validation and test (label shift), not only imbalance inside train",
    "classes too rare for stable per-class metrics or stratified folds",
    "columns that look like identifiers, timestamps or leaked targets (unique per row, near-perfect separation)",
    "inputs left unnormalized for a neural network, constant or near-constant columns, heavy tails",
    "splits too small for the validation error to resolve the differences being compared",
  ],
};
