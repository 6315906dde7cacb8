import { clientScanFacts } from "./client-scan.js";
import type { ScoreRef } from "./file/lightning.js";
import type { CheckpointScan, ScannedTensor } from "./file/scan-types.js";
import { clientTensorRecords, clientTensorStats, metadataConfig, metadataDtypes, metadataLightning, metadataOptimizerState, numberOr } from "./metadata.js";
import { type CheckpointInfo, hasNonfiniteValues, type TensorRecord } from "./table.js";

/** How the file, when there is one, was or was not read. */
export interface FileOutcome {
  scan: CheckpointScan | null;
  /** Why no file was read (e.g. "MLflow URI, not downloaded: metadata analyzed only"). */
  note: string | null;
  maxScanBytes: number | null;
}

function recordOf(t: ScannedTensor): TensorRecord {
  const s = t.stats;
  return {
    name: t.name,
    dtype: t.dtype,
    rawDtype: t.rawDtype,
    shape: t.shape,
    numel: t.numel,
    group: t.group,
    storage: t.storage ?? null,
    requiresGrad: t.requiresGrad ?? null,
    values: s && {
      nanCount: s.nanCount,
      infCount: s.posInfCount + s.negInfCount,
      zeroFraction: s.count > 0 ? s.zeroCount / s.count : null,
      min: s.min,
      max: s.max,
      mean: s.mean,
      std: s.std,
      maxAbs: s.maxAbs,
      units: s.units,
      deadUnits: s.deadUnits,
    },
  };
}

function countDtypes(tensors: readonly TensorRecord[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of tensors) if (t.group === "model") out[t.dtype ?? t.rawDtype] = (out[t.dtype ?? t.rawDtype] ?? 0) + 1;
  return out;
}

/** A Lightning score stored as a 0-d tensor is read from that tensor's measured value. */
function resolveScore(ref: ScoreRef | undefined, tensors: readonly TensorRecord[]): number | null {
  if (!ref) return null;
  if ("value" in ref) return ref.value;
  const t = tensors.find((x) => x.name === ref.tensor);
  return t?.numel === 1 ? (t.values?.mean ?? null) : null;
}

const OPTIMIZER_KEYS = /^(optimizer|optimizer_states|optimizer_state_dict|optim|opt)$/;

function fileOptimizerState(scan: CheckpointScan, tensors: readonly TensorRecord[]): boolean | null {
  if (scan.lightning) return scan.lightning.hasOptimizerStates;
  if (tensors.some((t) => t.group === "optimizer") || scan.topLevelKeys.some((k) => OPTIMIZER_KEYS.test(k))) return true;
  // A bare state dict or safetensors file holds weights only.
  return scan.format === "safetensors" || tensors.length > 0 ? false : null;
}

/** requires_grad = false marks a fixed tensor only beside tensors that require grad: an EMA model (Ultralytics,
 * timm) or a frozen export has it false everywhere. */
function requiresGradWhereItTells(tensors: TensorRecord[]): TensorRecord[] {
  if (tensors.some((t) => t.requiresGrad === true)) return tensors;
  for (const t of tensors) t.requiresGrad = null;
  return tensors;
}

/** Normalizes a scanned file and/or the request's metadata into the one table the detectors read. */
export function buildCheckpointInfo(path: string | null, requestMetadata: Record<string, unknown>, file: FileOutcome): CheckpointInfo {
  const scan = file.scan;
  // What a folder's config.json and trainer_state.json say, under what the request itself says.
  const metadata = scan?.folder ? { ...scan.folder.metadata, ...requestMetadata } : requestMetadata;
  const clientStats = clientTensorStats(metadata);
  // A client that scanned the file itself reports what statistics cannot carry (imports, faults); a file
  // scanned here always wins.
  const clientScan = scan ? null : clientScanFacts(metadata);
  const issues = scan?.issues ?? clientScan?.issues ?? [];
  const tensors = requiresGradWhereItTells(scan ? scan.tensors.map(recordOf) : clientTensorRecords(clientStats));
  const declaredTensors = numberOr(clientStats?.num_tensors);
  const fromTable = (pick: (t: TensorRecord) => number) => tensors.reduce((n, t) => n + pick(t), 0);
  const lightning = scan?.lightning ?? metadataLightning(metadata);
  const config = metadataConfig(metadata) ?? lightning?.hyperParameters ?? null;
  const bestRef = lightning?.modelCheckpoint?.bestModelScore ?? lightning?.earlyStopping?.bestScore ?? undefined;
  return {
    path,
    fileNote: file.note,
    mode: scan ? (scan.headerOnly ? "header_only" : "scanned") : "metadata_only",
    format: scan?.format ?? (typeof metadata.format === "string" ? metadata.format : null),
    trainingState: scan?.trainingState ?? clientScan?.trainingState ?? null,
    folder: scan?.folder ?? null,
    metadata,
    tensors,
    // A scan lists every tensor unless a storage or a shard is missing from the file or folder.
    tensorsComplete: scan ? !issues.some((i) => i.kind === "missing_storage") : (declaredTensors !== null && tensors.length >= declaredTensors && tensors.length > 0 && !issues.some((i) => i.kind === "missing_storage")),
    // The client's totals, or what its per_tensor rows add up to when the totals are absent (or smaller).
    nanCount: scan ? fromTable((t) => t.values?.nanCount ?? 0) : Math.max(numberOr(clientStats?.nan_count) ?? 0, fromTable((t) => t.values?.nanCount ?? 0)),
    infCount: scan ? fromTable((t) => t.values?.infCount ?? 0) : Math.max(numberOr(clientStats?.inf_count) ?? 0, fromTable((t) => t.values?.infCount ?? 0)),
    tensorsWithNonfinite: scan
      ? tensors.filter(hasNonfiniteValues).length
      : Math.max(numberOr(clientStats?.tensors_with_nonfinite) ?? 0, tensors.filter(hasNonfiniteValues).length),
    dtypes: scan ? countDtypes(tensors) : Object.keys(metadataDtypes(metadata)).length > 0 ? metadataDtypes(metadata) : countDtypes(tensors),
    config,
    lightning,
    // Finite only, as CheckpointFacts.best_model_score (z.number()) says: an EarlyStopping best_score still at its
    // initial ±inf, or a NaN score, is no recorded score.
    bestModelScore: numberOr(resolveScore(bestRef, tensors)) ?? numberOr(metadata.best_model_score),
    declaredParameters: numberOr(metadata.num_parameters),
    sizeBytes: scan?.fileSize ?? numberOr(metadata.size_bytes),
    pickles: scan?.pickles ?? clientScan?.pickles ?? [],
    unverified: scan?.unverified ?? clientScan?.unverified ?? [],
    issues,
    loadCode: scan?.loadCode ?? clientScan?.loadCode ?? [],
    fileFacts: scan?.fileMetadata ?? clientScan?.fileFacts ?? {},
    maxScanBytes: file.maxScanBytes,
    hasOptimizerState: metadataOptimizerState(metadata) ?? (scan ? fileOptimizerState(scan, tensors) : (lightning?.hasOptimizerStates || null)),
  };
}
