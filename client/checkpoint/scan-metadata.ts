import { basename } from "node:path";
import type { LightningState, ScoreRef } from "../../nodes/checkpoint/file/lightning.js";
import type { CheckpointScan, ScannedTensor } from "../../nodes/checkpoint/file/scan-types.js";

/** One `tensor_stats.per_tensor` row (ARTIFACTS.md): what the service's detectors read from a scanned file. */
function perTensor(t: ScannedTensor): Record<string, unknown> {
  const s = t.stats;
  const row: Record<string, unknown> = { name: t.name, dtype: t.dtype ?? t.rawDtype, shape: t.shape, group: t.group, ...(t.storage ? { storage: t.storage } : {}), ...(typeof t.requiresGrad === "boolean" ? { requires_grad: t.requiresGrad } : {}) };
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

/** What the scan found that statistics cannot say, as `metadata.scan` (nodes/checkpoint/client-scan.ts reads it). */
function scanFacts(scan: CheckpointScan): Record<string, unknown> {
  return {
    pickles: scan.pickles.map((p) => ({
      entry: p.entry,
      protocol: p.protocol,
      bytes: p.bytes,
      imports: p.globals.map((g) => ({ module: g.module, name: g.name, opcode: g.opcode, count: g.count })),
      ext_codes: p.extCodes,
      versions: p.versions,
      error: p.error,
      partial: p.partial,
    })),
    unverified: scan.unverified,
    issues: scan.issues.map((i) => ({ kind: i.kind, detail: i.detail, expected_bytes: i.expectedBytes, actual_bytes: i.actualBytes })),
    training_state: scan.trainingState,
    load_code: scan.loadCode,
    file_facts: scan.fileMetadata,
  };
}

/**
 * `model_checkpoint_artifacts.metadata` for a checkpoint scanned on this machine: format, dtypes, what a folder's
 * config.json/trainer_state.json say, Lightning state, `tensor_stats` for every tensor with its group (optimizer
 * moments are not weights), and `scan`: pickle imports, unopenable parts and structural faults. The service runs
 * the same detectors on these as on a file it scans itself, and classifies the imports by its own policy.
 * No `num_parameters`: the service counts them from the rows as from a scanned file (buffers excluded), so they
 * cannot disagree. Rows carry their storage identity, so tied weights count once against `size_bytes`.
 */
export function checkpointMetadata(scan: CheckpointScan): Record<string, unknown> {
  const dtypes: Record<string, number> = {};
  for (const t of scan.tensors) if (t.group === "model") dtypes[t.dtype ?? t.rawDtype] = (dtypes[t.dtype ?? t.rawDtype] ?? 0) + 1;
  const optimizer = scan.tensors.some((t) => t.group === "optimizer");
  return {
    checkpoint_name: basename(scan.path),
    ...scan.folder?.metadata,
    format: scan.format,
    size_bytes: scan.fileSize,
    dtypes,
    ...(scan.lightning ? lightningKeys(scan.lightning, scan.tensors) : { has_optimizer_state: optimizer }),
    tensor_stats: {
      num_tensors: scan.tensors.length,
      nan_count: scan.tensors.reduce((n, t) => n + (t.stats?.nanCount ?? 0), 0),
      inf_count: scan.tensors.reduce((n, t) => n + (t.stats ? t.stats.posInfCount + t.stats.negInfCount : 0), 0),
      tensors_with_nonfinite: scan.tensors.filter((t) => nonfinite(t) > 0).length,
      per_tensor: scan.tensors.map(perTensor),
    },
    scan: scanFacts(scan),
  };
}
