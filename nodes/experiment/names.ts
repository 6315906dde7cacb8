/** Node names of the experiment graph; each equals its function's name. */
export const EXPERIMENT_NODE = {
  analyzeRun: "analyzeRun",
  reasonAcrossRuns: "reasonAcrossRuns",
} as const;

/** The agent name cross-run findings and errors are reported under. */
export const EXPERIMENT_AGENT = "ExperimentReasoningAgent";
