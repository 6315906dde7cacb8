import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { AGENT_NAMES } from "../../graph/result.js";
import type { AnalyzerInput } from "../../graph/state.js";
import { type AnalyzerSpec, runAnalyzer } from "../analyzer.js";
import { detectDatasetFindings } from "./detect.js";
import type { DatasetFacts } from "./facts.js";
import { type DatasetStats, parseDatasetArtifact } from "./parse.js";

function datasetFacts(stats: DatasetStats): DatasetFacts {
  const train = stats.classCounts.train ?? {};
  const counts = Object.values(train);
  const total = counts.reduce((s, n) => s + n, 0);
  return {
    n_train: total || stats.numRows, n_val: null, n_test: null,
    num_classes: counts.length || null,
    majority_share: total ? Math.max(...counts) / total : null,
    imbalance_ratio: counts.length > 1 ? Math.min(...counts) / Math.max(...counts) : null,
    labels_by_split: Object.fromEntries(Object.entries(stats.classCounts).map(([k, v]) => [k, Object.keys(v)])),
    task: typeof stats.metadata.task === "string" ? stats.metadata.task : null,
    modality: typeof stats.metadata.modality === "string" ? stats.metadata.modality : null,
    overlap_fraction: null, has_nonfinite_features: false, has_unnormalized_inputs: false,
    columns: Object.keys(stats.missing),
  };
}

export const datasetAnalyzer: AnalyzerSpec<DatasetStats, DatasetFacts> = {
  kind: "dataset",
  agentName: AGENT_NAMES.dataset,
  parse: (payload) => parseDatasetArtifact(payload),
  detect: detectDatasetFindings,
  facts: datasetFacts,
  digest: (stats) => stats,
  describe: () => ["dataset_artifacts.statistics"],
};

/** Analyzer node for dataset statistics. */
export function analyzeDataset(input: AnalyzerInput, config: LangGraphRunnableConfig) {
  return runAnalyzer(datasetAnalyzer, input, config);
}
