import type { Finding } from "../../../domain/result.js";
import { detectorFinding } from "../../findings.js";
import { normalizeDType, tensorBytes } from "../file/dtypes.js";
import type { IntegrityIssue } from "../file/scan-types.js";
import type { CheckpointInfo, TensorRecord } from "../table.js";
import { fmt, isBuffer } from "./tensor-kinds.js";

/** Tensors of a group counted once per storage (tied weights share one). */
export function uniqueTensors(info: CheckpointInfo, group: TensorRecord["group"]): TensorRecord[] {
  const seen = new Set<string>();
  return info.tensors.filter((t) => {
    if (t.group !== group) return false;
    if (t.storage === null) return true;
    if (seen.has(t.storage)) return false;
    seen.add(t.storage);
    return true;
  });
}

const bytesOf = (ts: readonly TensorRecord[]) => ts.reduce((n, t) => n + (t.dtype && t.numel !== null ? tensorBytes(t.dtype, t.numel) : 0), 0);

/** Bytes the model's weights need: from the tensor table, or num_parameters × the declared dtype's size. */
export function expectedWeightBytes(info: CheckpointInfo): number | null {
  if (info.mode !== "metadata_only" || info.tensorsComplete) {
    const b = bytesOf(uniqueTensors(info, "model"));
    return b > 0 ? b : null;
  }
  const dtype = typeof info.metadata.dtype === "string" ? normalizeDType(info.metadata.dtype) : null;
  return dtype && info.declaredParameters ? tensorBytes(dtype, info.declaredParameters) : null;
}

/** CK-09: metadata whose size_bytes is below what its parameters need (critical); a file ≈ 2–4× its weights, i.e.
 * optimizer state (info). A scanned file that ends early is checkpoint.corrupt_file: its own header says so. */
export function detectSizeVsParams(info: CheckpointInfo): Finding[] {
  if (info.issues.some((i) => i.kind === "truncated")) return [];
  const expected = expectedWeightBytes(info);
  if (!expected || !info.sizeBytes) return [];
  const ratio = info.sizeBytes / expected;
  const optimizerBytes = bytesOf(uniqueTensors(info, "optimizer"));
  if (info.mode === "metadata_only" && ratio < 0.95) {
    return [detectorFinding({
      id: "checkpoint.size_vs_params",
      title: "Checkpoint is smaller than its parameters need",
      description: `size_bytes ${info.sizeBytes} is ${fmt(ratio)}× the ${expected} bytes that ${info.declaredParameters ?? "the listed"} parameters need: the file is likely truncated or incomplete.`,
      evidence: [{ rule_id: "CK-09", artifact: "model_checkpoint_artifacts.metadata.size_bytes", text: `size_bytes ${info.sizeBytes} vs expected ≥ ${expected} (ratio ${fmt(ratio)}).`, observed: ratio, threshold: 0.95 }],
      severity: "critical",
      confidence: 0.75,
      recommendation: { action: "Re-save or re-download the checkpoint and check it is not one shard of a sharded model.", rationale: "A checkpoint smaller than its weights is missing data.", category: "infrastructure", effort: "low" },
    })];
  }
  // Without a tensor table the size is the only hint, unless the metadata says outright there is no optimizer state.
  const sizeHint = info.mode === "metadata_only" && info.hasOptimizerState !== false && ratio >= 1.8 && ratio <= 4.5;
  const withOptimizer = optimizerBytes > 0.5 * expected || sizeHint;
  if (!withOptimizer) return [];
  return [detectorFinding({
    id: "checkpoint.size_vs_params",
    title: "Checkpoint includes optimizer state",
    description: `The file is ${fmt(ratio)}× the size of the model weights (${expected} bytes): it carries optimizer state${ratio > 2.5 && ratio < 3.6 ? " (Adam keeps two moments per parameter, ≈3×)" : ""}. Useful for resuming; strip it for inference artifacts.`,
    evidence: [{ rule_id: "CK-09", artifact: info.mode === "metadata_only" ? "model_checkpoint_artifacts.metadata.size_bytes" : "model_checkpoint_artifacts.checkpoint_path", text: `file ${info.sizeBytes} bytes, weights ${expected} bytes${optimizerBytes ? `, optimizer tensors ${optimizerBytes} bytes` : ""}.`, observed: ratio, threshold: 1.8 }],
    severity: "info",
    confidence: optimizerBytes > 0 ? 0.9 : 0.6,
    recommendation: { action: "Keep this file for resuming; publish a weights-only export (state_dict or safetensors) for inference.", rationale: "Optimizer moments double or triple the size and are useless at inference.", category: "infrastructure", effort: "low" },
  })];
}

/** CK-09: a file that ends before the data its own structure describes (critical), other structural faults (holes,
 * overlaps, bad header entries, missing storages: high), and unexplained trailing bytes (low). */
export function detectCorruptFile(info: CheckpointInfo): Finding[] {
  const truncated = info.issues.filter((i) => i.kind === "truncated");
  const faults = info.issues.filter((i) => i.kind !== "truncated" && i.kind !== "trailing");
  const trailing = info.issues.filter((i) => i.kind === "trailing");
  if (truncated.length + faults.length + trailing.length === 0) return [];
  const recommendation = { action: "Re-save or re-download the checkpoint with the framework's own writer (safetensors.save_file / torch.save) and verify its size or checksum and that it loads.", rationale: "A malformed or cut-short file cannot be trusted to hold the trained weights.", category: "infrastructure" as const, effort: "low" as const };
  const evidenceOf = (issues: readonly IntegrityIssue[]) => issues.slice(0, 8).map((i) => ({ rule_id: "CK-09", artifact: "model_checkpoint_artifacts.checkpoint_path", text: i.detail, observed: i.actualBytes ?? i.kind, threshold: i.expectedBytes ?? null }));
  if (truncated.length > 0) {
    return [detectorFinding({
      id: "checkpoint.corrupt_file",
      title: "Checkpoint file is truncated",
      description: `The file is truncated: it ends before the data its own header describes (${truncated[0]!.detail}). It was cut short while being written or copied and cannot be loaded.`,
      evidence: evidenceOf([...truncated, ...faults]),
      severity: "critical",
      confidence: 0.95,
      recommendation,
    })];
  }
  return [detectorFinding({
    id: "checkpoint.corrupt_file",
    title: faults.length > 0 ? "Checkpoint file is malformed" : "Checkpoint file has unexplained trailing bytes",
    description: faults.length > 0
      ? `The checkpoint's structure is inconsistent (${faults[0]!.kind}: ${faults[0]!.detail}${faults.length > 1 ? `; ${faults.length - 1} more: ${[...new Set(faults.slice(1).map((i) => i.kind))].join(", ")}` : ""}). Loaders will refuse it or read wrong values.`
      : "Bytes after the last tensor belong to no tensor: harmless to loaders, but a sign of an unusual writer or an appended payload.",
    evidence: evidenceOf([...faults, ...trailing]),
    severity: faults.length > 0 ? "high" : "low",
    confidence: 0.9,
    recommendation,
  })];
}

/** Parameters counted from the tensor table (tied weights once, buffers excluded). */
export function countParameters(info: CheckpointInfo): number | null {
  if (!info.tensorsComplete) return null;
  const params = uniqueTensors(info, "model").filter((t) => !isBuffer(t));
  if (params.length === 0 || params.some((t) => t.numel === null)) return null;
  return params.reduce((n, t) => n + t.numel!, 0);
}

/** Parameter count of the tensors vs the metadata's num_parameters (more than 1 % apart). */
export function detectParamCountMismatch(info: CheckpointInfo): Finding[] {
  const counted = countParameters(info);
  const declared = info.declaredParameters;
  if (counted === null || !declared) return [];
  const diff = Math.abs(counted - declared) / declared;
  if (diff <= 0.01) return [];
  return [detectorFinding({
    id: "checkpoint.param_count_mismatch",
    title: "Parameter count differs from the metadata",
    description: `The checkpoint's tensors hold ${counted} parameters but the metadata says ${declared} (${fmt(diff * 100)} % apart): the file may not be the model the metadata describes.`,
    evidence: [{ rule_id: "CK-11", artifact: "model_checkpoint_artifacts.metadata.num_parameters", text: `counted ${counted}, declared ${declared}.`, observed: counted, threshold: declared }],
    severity: "medium",
    confidence: 0.75,
    recommendation: { action: "Check that the file and its metadata come from the same model and run (architecture, head size, tied weights).", rationale: "Metadata that disagrees with the weights misleads every later comparison.", category: "infrastructure", effort: "low" },
  })];
}
