import type { AnalyzerPrompt } from "../../llm/prompt-kit.js";

/** What the checkpoint analyzer asks the model to look at beyond its detectors (DETECTORS.md §2.4). */
export const checkpointPrompt: AnalyzerPrompt = {
  artifact: "one model checkpoint: its metadata (epoch, step, parameter count, dtype, file size) and, when scanned, tensor statistics",
  focus: [
    "whether this is the best checkpoint or simply the last one saved",
    "file size against the parameter count (optimizer state included, truncated file)",
    "precision: dtypes that differ from the training setup, non-finite or all-zero tensors",
    "metadata missing for reproducing or serving the model (config, hyperparameters, data version)",
  ],
};
