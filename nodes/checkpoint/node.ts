import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { AGENT_NAMES } from "../../graph/result.js";
import type { AnalyzerInput } from "../../graph/state.js";
import { type AnalyzerSpec, runAnalyzer } from "../analyzer.js";
import { detectCheckpointFindings } from "./detect.js";
import type { CheckpointFacts } from "./facts.js";
import { type CheckpointInfo, parseCheckpointArtifact } from "./parse.js";

const numberOrNull = (v: unknown) => (typeof v === "number" ? v : null);

function checkpointFacts(info: CheckpointInfo): CheckpointFacts {
  return {
    format: typeof info.metadata.format === "string" ? info.metadata.format : null,
    epoch: numberOrNull(info.metadata.epoch),
    global_step: numberOrNull(info.metadata.global_step),
    num_parameters: numberOrNull(info.metadata.num_parameters),
    head_classes: null,
    has_optimizer_state: null,
    nonfinite_tensors: info.nanCount + info.infCount > 0 ? 1 : 0,
    scanned: false,
    best_model_score: null,
  };
}

export const checkpointAnalyzer: AnalyzerSpec<CheckpointInfo, CheckpointFacts> = {
  kind: "checkpoint",
  agentName: AGENT_NAMES.checkpoint,
  parse: (payload) => parseCheckpointArtifact(payload),
  detect: detectCheckpointFindings,
  facts: checkpointFacts,
  digest: (info) => ({ path: info.path, metadata_keys: Object.keys(info.metadata) }),
  describe: (info) => [info.path ? `model_checkpoint_artifacts (${info.path}, metadata only)` : "model_checkpoint_artifacts.metadata"],
};

/** Analyzer node for model checkpoints. */
export function analyzeCheckpoint(input: AnalyzerInput, config: LangGraphRunnableConfig) {
  return runAnalyzer(checkpointAnalyzer, input, config);
}
