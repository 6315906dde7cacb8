import { basename } from "node:path";
import type { Finding } from "../../../domain/result.js";
import { detectorFinding } from "../../findings.js";
import type { CheckpointInfo } from "../table.js";
import { describesItself } from "./model-format.js";
import { expectedWeightBytes } from "./size.js";

/** CK-10: no configuration, architecture or hyperparameters saved with the checkpoint (a training-state file, such
 * as optimizer.pt, never carries a model configuration: nothing is missing from it). */
export function detectMissingMetadata(info: CheckpointInfo): Finding[] {
  const m = info.metadata;
  if (info.config || m.architecture || m.model_type || info.trainingState !== null || describesItself(info)) return [];
  return [detectorFinding({
    id: "checkpoint.missing_metadata",
    title: "Checkpoint saved without its configuration",
    description: "No model configuration, architecture or hyperparameters were recorded with the checkpoint (neither in the metadata nor in the file), so it cannot be rebuilt or audited reliably.",
    evidence: [{ rule_id: "CK-10", artifact: "model_checkpoint_artifacts.metadata", text: `metadata keys: ${Object.keys(m).join(", ") || "(none)"}.`, observed: "no config" }],
    severity: "low",
    confidence: 0.8,
    recommendation: { action: "Save the model config, hyperparameters, data version, code commit and seed with every checkpoint.", rationale: "Without them a checkpoint cannot be reproduced or compared.", category: "infrastructure", effort: "low" },
  })];
}

function checkpointName(info: CheckpointInfo): string {
  const m = info.metadata.checkpoint_name;
  return typeof m === "string" ? m : info.path ? basename(info.path) : "";
}

/** Whether the checkpoint is meant for resuming training: a Lightning `last`/`resume` checkpoint, or metadata says so. */
function meantForResume(info: CheckpointInfo): boolean {
  if (info.metadata.purpose === "resume" || info.metadata.resume === true) return true;
  return info.lightning !== null && /(^|[/_-])(last|resume)/i.test(checkpointName(info));
}

/** Optimizer state told by the file or metadata; for metadata only, a file no larger than its weights has none. */
function optimizerState(info: CheckpointInfo): boolean | null {
  if (info.hasOptimizerState !== null) return info.hasOptimizerState;
  const expected = expectedWeightBytes(info);
  return expected && info.sizeBytes ? (info.sizeBytes / expected < 1.3 ? false : null) : null;
}

/** A checkpoint meant for resuming that has no optimizer state cannot resume training exactly. */
export function detectNoOptimizerState(info: CheckpointInfo): Finding[] {
  if (!meantForResume(info) || optimizerState(info) !== false) return [];
  return [detectorFinding({
    id: "checkpoint.no_optimizer_state",
    title: "Resume checkpoint has no optimizer state",
    description: `${checkpointName(info) || "The checkpoint"} looks meant for resuming training but holds no optimizer state${info.lightning?.hasLrSchedulers === false ? " or LR scheduler state" : ""}: resuming restarts the optimizer moments and changes the training trajectory.`,
    evidence: [{ rule_id: "CK-10", artifact: "model_checkpoint_artifacts", text: `optimizer_states absent; epoch ${info.lightning?.epoch ?? "?"}, global_step ${info.lightning?.globalStep ?? "?"}.`, observed: false }],
    severity: "medium",
    confidence: 0.7,
    recommendation: { action: "Save resume checkpoints with optimizer and scheduler state (Lightning: save_weights_only=False), and keep weights-only exports for inference.", rationale: "Adam's moments and the LR schedule are part of the training state.", category: "training", effort: "low" },
  })];
}

/** The file was above SERVICE_MAX_CHECKPOINT_BYTES: structure and pickles checked, tensor values not. */
export function detectHeaderOnly(info: CheckpointInfo): Finding[] {
  if (info.mode !== "header_only") return [];
  return [detectorFinding({
    id: "checkpoint.header_only",
    title: "Checkpoint scanned header-only",
    description: `The file is ${info.sizeBytes} bytes, above the ${info.maxScanBytes} bytes the service scans in full (SERVICE_MAX_CHECKPOINT_BYTES): its structure and pickles were checked, its tensor values were not.`,
    evidence: [{ rule_id: "CK-09", artifact: "model_checkpoint_artifacts.checkpoint_path", text: `size ${info.sizeBytes} > limit ${info.maxScanBytes}.`, observed: info.sizeBytes, threshold: info.maxScanBytes }],
    severity: "info",
    confidence: 0.95,
    recommendation: { action: "Send client-computed tensor_stats in the metadata, or raise SERVICE_MAX_CHECKPOINT_BYTES, to have the values checked.", rationale: "Non-finite or collapsed weights can only be found by reading the values.", category: "infrastructure", effort: "low" },
  })];
}

/**
 * The file is not a format the scanner reads (an unknown binary, a zip that is neither torch nor Keras). A truncated zip is not: it lost
 * the central directory that names its data.pkl, and CK-09 says so.
 */
export function detectUnrecognizedFormat(info: CheckpointInfo): Finding[] {
  if (info.mode === "metadata_only" || (info.format !== "unknown" && info.format !== "zip")) return [];
  if (info.issues.some((i) => i.kind === "truncated")) return [];
  return [detectorFinding({
    id: "checkpoint.unrecognized_format",
    title: "Checkpoint format not scanned",
    description: `The file's content is ${info.format === "unknown" ? "not a format the scanner reads (safetensors, PyTorch, pickle, Keras, HDF5, ONNX, GGUF, SavedModel)" : "a zip without a PyTorch data.pkl or a Keras config.json"}: its tensors were not checked.`,
    evidence: [{ rule_id: "CK-10", artifact: "model_checkpoint_artifacts.checkpoint_path", text: `format detected by content: ${info.format}.`, observed: info.format }],
    severity: "low",
    confidence: 0.9,
    recommendation: { action: "Provide the checkpoint as safetensors or a PyTorch state dict, or send tensor_stats in the metadata.", rationale: "Only readable weights can be checked for faults.", category: "infrastructure", effort: "low" },
  })];
}
