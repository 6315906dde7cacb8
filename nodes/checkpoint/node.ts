import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { AGENT_NAMES } from "../../domain/result.js";
import type { AnalyzerInput } from "../../graph/state.js";
import { runAnalyzer } from "../analyzer.js";
import type { AnalyzerSpec } from "../analyzer-spec.js";
import { detectCheckpointFindings } from "./detect.js";
import { classifierHead, configuredClasses } from "./detectors/config.js";
import { countParameters } from "./detectors/size.js";
import type { CheckpointFacts } from "./facts.js";
import type { TrainingState } from "./file/scan-types.js";
import { numberOr } from "./metadata.js";
import { parseCheckpointArtifact } from "./parse.js";
import type { CheckpointInfo } from "./table.js";

/** The step in a Hugging Face Trainer checkpoint's name (`…/checkpoint-3000`), its only record of the step. */
export function stepFromCheckpointName(...names: unknown[]): number | null {
  for (const name of names) {
    const match = typeof name === "string" ? /(?:^|[/\\])checkpoint-(\d+)(?:[/\\]|$)/.exec(name) : null;
    if (match) return Number(match[1]);
  }
  return null;
}

function checkpointFacts(info: CheckpointInfo): CheckpointFacts {
  const dangerous = info.pickles.flatMap((p) => p.globals.filter((g) => g.safety === "dangerous").map((g) => `${g.module}.${g.name}`));
  return {
    format: info.format,
    epoch: info.lightning?.epoch ?? numberOr(info.metadata.epoch),
    global_step:
      info.lightning?.globalStep ?? numberOr(info.metadata.global_step) ?? stepFromCheckpointName(info.metadata.checkpoint_name, info.path),
    num_parameters: info.declaredParameters ?? countParameters(info),
    head_classes: classifierHead(info)?.shape?.[0] ?? configuredClasses(info.config)?.[1] ?? null,
    has_optimizer_state: info.hasOptimizerState,
    nonfinite_tensors: info.tensorsWithNonfinite || (info.nanCount + info.infCount > 0 ? 1 : 0),
    scanned: info.mode !== "metadata_only",
    best_model_score: info.bestModelScore,
    monitor: info.lightning?.modelCheckpoint?.monitor ?? null,
    best_model_path: info.lightning?.modelCheckpoint?.bestModelPath ?? null,
    dangerous_globals: [...new Set(dangerous)],
    header_only: info.mode === "header_only",
  };
}

const MiB = 2 ** 20;

const TRAINING_STATE_NAMES: Record<TrainingState, string> = {
  optimizer: "optimizer state, not weights",
  scheduler: "LR scheduler state",
  rng_state: "RNG state",
  training_args: "pickled TrainingArguments",
};

function describe(info: CheckpointInfo): string[] {
  if (info.mode === "metadata_only") {
    return [info.fileNote ? `model_checkpoint_artifacts (${info.fileNote})` : "model_checkpoint_artifacts.metadata (metadata only)"];
  }
  const size = `${(info.sizeBytes! / MiB).toFixed(1)} MiB`;
  const files = info.folder?.files.filter((f) => f.role !== "other");
  const folder = files ? `folder of ${files.map((f) => `${f.relative} (${f.role})`).join(", ")}; ` : "";
  const how = info.mode === "header_only" ? `header only, above SERVICE_MAX_CHECKPOINT_BYTES` : "values scanned";
  return [
    `model_checkpoint_artifacts.checkpoint_path (${folder}${info.format}${info.trainingState ? `, ${TRAINING_STATE_NAMES[info.trainingState]}` : ""}, ${info.tensors.length} tensors, ${size}, ${how}; ${info.pickles.length} pickle(s) checked for imports)`,
    ...(Object.keys(info.metadata).length > 0 ? ["model_checkpoint_artifacts.metadata"] : []),
  ];
}

/** A bounded summary for the language model: the table's shape and what stood out, never the tensors. */
function digest(info: CheckpointInfo) {
  const worst = info.tensors
    .filter((t) => t.values && t.group === "model")
    .sort((a, b) => (b.values!.maxAbs ?? 0) - (a.values!.maxAbs ?? 0))
    .slice(0, 10)
    .map((t) => ({ name: t.name, dtype: t.dtype ?? t.rawDtype, shape: t.shape, std: t.values!.std, max_abs: t.values!.maxAbs }));
  return {
    path: info.path,
    mode: info.mode,
    format: info.format,
    tensors: info.tensors.length,
    dtypes: info.dtypes,
    nan_count: info.nanCount,
    inf_count: info.infCount,
    largest_tensors_by_max_abs: worst,
    lightning: info.lightning && { epoch: info.lightning.epoch, global_step: info.lightning.globalStep, version: info.lightning.version, best_model_score: info.bestModelScore, has_optimizer_states: info.lightning.hasOptimizerStates },
    imports: [...new Set(info.pickles.flatMap((p) => p.globals.map((g) => `${g.module}.${g.name} (${g.safety})`)))].slice(0, 30),
    config_keys: info.config ? Object.keys(info.config).slice(0, 40) : [],
    metadata_keys: Object.keys(info.metadata).slice(0, 40),
  };
}

export const checkpointAnalyzer: AnalyzerSpec<CheckpointInfo, CheckpointFacts> = {
  kind: "checkpoint",
  agentName: AGENT_NAMES.checkpoint,
  parse: (payload, run) => parseCheckpointArtifact(payload, run),
  detect: detectCheckpointFindings,
  facts: checkpointFacts,
  digest,
  describe,
};

/** Analyzer node for model checkpoints. */
export function analyzeCheckpoint(input: AnalyzerInput, config: LangGraphRunnableConfig) {
  return runAnalyzer(checkpointAnalyzer, input, config);
}
