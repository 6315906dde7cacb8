import { basename } from "node:path";
import type { LightningState, ScoreRef } from "../../nodes/checkpoint/file/lightning.js";
import type { CheckpointScan, ScannedTensor } from "../../nodes/checkpoint/file/scan-types.js";

/** One `tensor_stats.per_tensor` row (ARTIFACTS.md): what the service's detectors read from a scanned file. */
function perTensor(t: ScannedTensor): Record<string, unknown> {
  const s = t.stats;
  const row: Record<string, unknown> = { name: t.name, dtype: t.dtype ?? t.rawDtype, shape: t.shape };
  if (!s) return row;
  return {
    ...row,
    mean: s.mean,
    std: s.std,
    min: s.min,
    max: s.max,
    max_abs: s.maxAbs,
    nan_count: s.nanCount,
    inf_count: s.posInfCount + s.negInfCount,
    zero_fraction: s.count > 0 ? s.zeroCount / s.count : null,
    units: s.units,
    dead_units: s.deadUnits,
  };
}

const nonfinite = (t: ScannedTensor) => (t.stats ? t.stats.nanCount + t.stats.posInfCount + t.stats.negInfCount : 0);

/** A score the checkpoint stores as a 0-d tensor is that tensor's measured value. */
function scoreOf(ref: ScoreRef, tensors: readonly ScannedTensor[]): number | null {
  if (!ref) return null;
  if ("value" in ref) return ref.value;
  const t = tensors.find((x) => x.name === ref.tensor);
  return t?.numel === 1 ? (t.stats?.mean ?? null) : null;
}

/** Lightning's top-level keys as the service reads them from metadata (nodes/checkpoint/metadata.ts). */
function lightningKeys(l: LightningState, tensors: readonly ScannedTensor[]): Record<string, unknown> {
  const callbacks: Record<string, unknown> = {};
  if (l.modelCheckpoint) {
    const m = l.modelCheckpoint;
    callbacks.ModelCheckpoint = { monitor: m.monitor, mode: m.mode, best_model_score: scoreOf(m.bestModelScore, tensors), best_model_path: m.bestModelPath, last_model_path: m.lastModelPath };
  }
  if (l.earlyStopping) {
    const e = l.earlyStopping;
    callbacks.EarlyStopping = { monitor: e.monitor, wait_count: e.waitCount, stopped_epoch: e.stoppedEpoch, patience: e.patience, best_score: scoreOf(e.bestScore, tensors) };
  }
  return {
    "pytorch-lightning_version": l.version,
    epoch: l.epoch,
    global_step: l.globalStep,
    ...(l.hyperParameters ? { hyper_parameters: l.hyperParameters } : {}),
    optimizer_states: l.hasOptimizerStates,
    ...(l.hasLrSchedulers ? { lr_schedulers: true } : {}),
    ...(l.hasLoops ? { loops: true } : {}),
    callbacks,
  };
}

/**
 * `model_checkpoint_artifacts.metadata` for a checkpoint scanned on this machine: format, size, dtypes, what a folder's config.json/trainer_state.json say, Lightning state, and `tensor_stats` for the model's
 * tensors (optimizer state is summarized, not sent as weights). No `num_parameters`: the service counts them
 * from the rows as from a scanned file (buffers excluded), so they cannot disagree; no `size_bytes` either: rows
 * carry no storage identity, so tied weights would count twice against the file size (the local scan checks the
 * file's integrity itself, see scan-local.ts). The service runs the same
 * detectors on these statistics as on a file it scans itself.
 */
export function checkpointMetadata(scan: CheckpointScan): Record<string, unknown> {
  const model = scan.tensors.filter((t) => t.group === "model");
  const dtypes: Record<string, number> = {};
  for (const t of model) dtypes[t.dtype ?? t.rawDtype] = (dtypes[t.dtype ?? t.rawDtype] ?? 0) + 1;
  const withNonfinite = model.filter((t) => nonfinite(t) > 0);
  const optimizer = scan.tensors.filter((t) => t.group === "optimizer");
  return {
    checkpoint_name: basename(scan.path),
    ...scan.folder?.metadata,
    format: scan.format,
    dtypes,
    ...(scan.lightning ? lightningKeys(scan.lightning, scan.tensors) : { has_optimizer_state: optimizer.length > 0 }),
    ...(scan.trainingState ? { training_state: scan.trainingState } : {}),
    tensor_stats: {
      num_tensors: model.length,
      nan_count: model.reduce((n, t) => n + (t.stats?.nanCount ?? 0), 0),
      inf_count: model.reduce((n, t) => n + (t.stats ? t.stats.posInfCount + t.stats.negInfCount : 0), 0),
      tensors_with_nonfinite: withNonfinite.length,
      per_tensor: model.map(perTensor),
    },
  };
}
