import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { AGENT_NAMES } from "../../domain/result.js";
import type { AnalyzerInput } from "../../graph/state.js";
import { runAnalyzer } from "../analyzer.js";
import type { AnalyzerSpec, ArtifactSource } from "../analyzer-spec.js";
import { detectDatasetFindings } from "./detect.js";
import { describeDataset, digestDataset } from "./digest.js";
import type { DatasetFacts } from "./facts.js";
import type { DatasetStats } from "./model.js";
import { parseDatasetArtifact } from "./parse.js";
import { datasetFacts } from "./to-facts.js";

export const datasetAnalyzer: AnalyzerSpec<DatasetStats, DatasetFacts, ArtifactSource> = {
  kind: "dataset",
  agentName: AGENT_NAMES.dataset,
  parse: (payload, run) => parseDatasetArtifact(payload, run.input.artifact.field),
  detect: (stats) => detectDatasetFindings(stats),
  facts: datasetFacts,
  digest: digestDataset,
  describe: describeDataset,
};

/** Analyzer node for dataset statistics. */
export function analyzeDataset(input: AnalyzerInput, config: LangGraphRunnableConfig) {
  return runAnalyzer(datasetAnalyzer, input, config);
}
