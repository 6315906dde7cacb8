import { z } from "zod";
import { normalizeDType } from "./file/dtypes.js";
import type { LightningState } from "./file/lightning.js";
import { SUMMARY_STATS, type SummaryStat, type TensorRecord } from "./table.js";
import { isRecord, toNumber } from "../../artifacts/json-values.js";

/**
 * A client statistic: a JSON number, NaN and ±Infinity included (torch reports NaN mean/std/min/max for exactly the
 * damaged tensor, and the request decoder accepts bare NaN/Infinity), or the MLflow-style strings "NaN"/"Infinity".
 * Anything else reads as null: one unreadable statistic never drops its row (z.number() would reject NaN and ±Inf).
 */
const stat = z.unknown().optional().transform((v): number | null => toNumber(v));
/** A count: a finite number ≥ 0 (or its string form), else null (not reported). */
const count = z.unknown().optional().transform((v): number | null => {
  const n = toNumber(v);
  return n !== null && Number.isFinite(n) && n >= 0 ? n : null;
});

/** One entry of the client's `tensor_stats.per_tensor` (ARTIFACTS.md); unknown keys are kept and ignored. */
const PerTensorSchema = z.looseObject({
  name: z.string().min(1),
  dtype: z.string().nullish().catch(null),
  shape: z.array(z.number().int().min(0)).nullish().catch(null),
  mean: stat,
  std: stat,
  min: stat,
  max: stat,
  max_abs: stat,
  nan_count: count,
  inf_count: count,
  zero_fraction: stat,
  /** Where the tensor sits in a training checkpoint (optimizer moments are not weights); model when absent. */
  group: z.enum(["model", "optimizer", "other"]).optional().catch(undefined),
  /** Storage identity: tensors sharing one (tied weights) count once against the file size. */
  storage: z.string().optional().catch(undefined),
  /** torch's requires_grad of the tensor, where the file records it (whole pickled models, Parameters). */
  requires_grad: z.boolean().optional().catch(undefined),
  /** Output units (first dimension) the client tracked, and how many have ~zero weights (the dead-unit proxy). */
  units: count,
  dead_units: count,
});

/** The client's aggregate `tensor_stats`; a malformed field reads as null rather than discarding the block. */
const TensorStatsSchema = z.looseObject({
  num_tensors: count,
  nan_count: count,
  inf_count: count,
  tensors_with_nonfinite: count,
  per_tensor: z.array(z.unknown()).nullish().catch(null),
});
export type ClientTensorStats = z.infer<typeof TensorStatsSchema>;

const numberOr = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** `tensor_stats` when it has the documented shape, else null (a malformed block is ignored, not fatal). */
export function clientTensorStats(metadata: Record<string, unknown>): ClientTensorStats | null {
  const parsed = TensorStatsSchema.safeParse(metadata.tensor_stats);
  return parsed.success ? parsed.data : null;
}

/**
 * The per-tensor rows a client computed, as table records; entries without a name are skipped. Non-finite
 * statistics are kept aside in `nonfiniteStats` (they tell that the tensor holds NaN/±Inf), and min…maxAbs keep
 * finite values only, as for a scanned file.
 */
export function clientTensorRecords(stats: ClientTensorStats | null): TensorRecord[] {
  return (stats?.per_tensor ?? []).flatMap((raw): TensorRecord[] => {
    const p = PerTensorSchema.safeParse(raw);
    if (!p.success) return [];
    const t = p.data;
    const shape = t.shape ?? null;
    const nonfiniteStats: Partial<Record<SummaryStat, number>> = {};
    for (const k of SUMMARY_STATS) {
      const v = t[k];
      if (v !== null && !Number.isFinite(v)) nonfiniteStats[k] = v;
    }
    const min = numberOr(t.min);
    const max = numberOr(t.max);
    const maxAbs = numberOr(t.max_abs) ?? (min !== null && max !== null ? Math.max(Math.abs(min), Math.abs(max)) : null);
    return [{
      name: t.name,
      dtype: t.dtype ? normalizeDType(t.dtype) : null,
      rawDtype: t.dtype ?? "unknown",
      shape,
      numel: shape ? shape.reduce((a, b) => a * b, 1) : null,
      group: t.group ?? "model",
      storage: t.storage ?? null,
      requiresGrad: t.requires_grad ?? null,
      values: {
        nanCount: t.nan_count ?? 0,
        infCount: t.inf_count ?? 0,
        zeroFraction: numberOr(t.zero_fraction),
        min,
        max,
        mean: numberOr(t.mean),
        std: numberOr(t.std),
        maxAbs,
        units: t.units,
        deadUnits: t.dead_units,
        nonfiniteStats: Object.keys(nonfiniteStats).length > 0 ? nonfiniteStats : null,
      },
    }];
  });
}

/** The model configuration: `config` over `hyper_parameters` (both may be present), or null. */
export function metadataConfig(metadata: Record<string, unknown>): Record<string, unknown> | null {
  const hp = isRecord(metadata.hyper_parameters) ? metadata.hyper_parameters : null;
  const config = isRecord(metadata.config) ? metadata.config : null;
  return hp || config ? { ...hp, ...config } : null;
}

/** `{dtype: count}` from `dtypes`, or the single `dtype`, with names normalized (`float16` → `F16`). */
export function metadataDtypes(metadata: Record<string, unknown>): Record<string, number> {
  const out: Record<string, number> = {};
  if (isRecord(metadata.dtypes)) {
    for (const [k, v] of Object.entries(metadata.dtypes)) {
      const name = normalizeDType(k) ?? k;
      if (typeof v === "number") out[name] = (out[name] ?? 0) + v;
    }
  } else if (typeof metadata.dtype === "string") {
    out[normalizeDType(metadata.dtype) ?? metadata.dtype] = 1;
  }
  return out;
}

function callbackState(metadata: Record<string, unknown>, prefix: string): Record<string, unknown> | null {
  if (!isRecord(metadata.callbacks)) return null;
  const hit = Object.entries(metadata.callbacks).find(([k]) => k.startsWith(prefix));
  return hit && isRecord(hit[1]) ? hit[1] : null;
}

/** Lightning state told by metadata keys (the client copied the checkpoint's top-level keys), or null. */
export function metadataLightning(metadata: Record<string, unknown>): LightningState | null {
  const name = typeof metadata.checkpoint_name === "string" ? metadata.checkpoint_name : "";
  const lightning = "pytorch-lightning_version" in metadata || "callbacks" in metadata || "optimizer_states" in metadata || (name.endsWith(".ckpt") && "epoch" in metadata);
  if (!lightning) return null;
  const mc = callbackState(metadata, "ModelCheckpoint");
  const es = callbackState(metadata, "EarlyStopping");
  const optimizers = metadata.optimizer_states;
  return {
    epoch: numberOr(metadata.epoch),
    globalStep: numberOr(metadata.global_step),
    version: typeof metadata["pytorch-lightning_version"] === "string" ? metadata["pytorch-lightning_version"] : null,
    hyperParameters: isRecord(metadata.hyper_parameters) ? metadata.hyper_parameters : null,
    hasOptimizerStates: Array.isArray(optimizers) ? optimizers.length > 0 : optimizers === true,
    optimizerCount: Array.isArray(optimizers) ? optimizers.length : 0,
    hasLrSchedulers: "lr_schedulers" in metadata,
    hasLoops: "loops" in metadata,
    modelCheckpoint: mc && {
      monitor: typeof mc.monitor === "string" ? mc.monitor : null,
      mode: typeof mc.mode === "string" ? mc.mode : null,
      bestModelScore: numberOr(mc.best_model_score) === null ? null : { value: numberOr(mc.best_model_score)! },
      bestModelPath: typeof mc.best_model_path === "string" ? mc.best_model_path : null,
      lastModelPath: typeof mc.last_model_path === "string" ? mc.last_model_path : null,
    },
    earlyStopping: es && {
      monitor: typeof es.monitor === "string" ? es.monitor : null,
      waitCount: numberOr(es.wait_count),
      stoppedEpoch: numberOr(es.stopped_epoch),
      patience: numberOr(es.patience),
      bestScore: numberOr(es.best_score) === null ? null : { value: numberOr(es.best_score)! },
    },
  };
}

/** What the metadata says about optimizer state: explicit flags first. */
export function metadataOptimizerState(metadata: Record<string, unknown>): boolean | null {
  if (typeof metadata.has_optimizer_state === "boolean") return metadata.has_optimizer_state;
  if (Array.isArray(metadata.optimizer_states)) return metadata.optimizer_states.length > 0;
  if (typeof metadata.optimizer_states === "boolean") return metadata.optimizer_states;
  return null;
}

export { isRecord, numberOr };
