import type { TrainingRun } from "./model.js";
import { paramFlag, paramNumber, paramText } from "./params.js";

/** What the params, logs and metadata say about how the run was set up. */

/** Number of classes K when the run states it (num_classes, num_labels, …); null otherwise. */
export function numClasses(run: TrainingRun): number | null {
  const k = paramNumber(run.params, "num_classes", "n_classes", "num_labels", "nb_classes", "n_labels", "classes");
  if (k !== null) return Number.isInteger(k) && k >= 2 ? k : null;
  const list = paramText(run.params, "classes", "labels", "class_names");
  if (list?.startsWith("[")) {
    const n = list.split(",").length;
    return n >= 2 ? n : null;
  }
  return null;
}

/**
 * "adam" for the Adam family (AdamW, Adafactor excluded), "sgd", or null when not stated: read from the params
 * (optimizer, HF `optim`, Lightning hparams), else from Lightning's LearningRateMonitor series name (`lr-AdamW`).
 */
export function optimizerFamily(run: TrainingRun): "adam" | "sgd" | "other" | null {
  const name = (paramText(run.params, "optimizer", "optim", "optimizer_name", "opt") ?? lrMonitorOptimizer(run))?.toLowerCase();
  if (!name) return null;
  if (/adam|lamb|lion/.test(name)) return "adam";
  if (/sgd|momentum|nesterov/.test(name)) return "sgd";
  return "other";
}

/** The optimizer class in a LearningRateMonitor series name: "lr-AdamW" → "AdamW", "lr-SGD/pg1" → "SGD". */
function lrMonitorOptimizer(run: TrainingRun): string | null {
  for (const s of run.series.values()) {
    if (s.quantity !== "lr") continue;
    for (const source of s.sources) {
      const m = /^lr-([A-Za-z]\w*)/.exec(source);
      if (m) return m[1]!;
    }
  }
  return null;
}

/** The configured gradient-clipping threshold (max_grad_norm, gradient_clip_val, clipnorm…), if any. */
export function clipThreshold(run: TrainingRun): number | null {
  const t = paramNumber(run.params, "max_grad_norm", "gradient_clip_val", "clip_grad_norm", "clipnorm", "grad_clip", "max_norm", "clip_norm");
  return t !== null && t > 0 ? t : null;
}

/** Whether fp16 mixed precision was on (fp16=True, precision 16/16-mixed, mixed_precision fp16). */
export function usesFp16(run: TrainingRun): boolean {
  if (paramFlag(run.params, "fp16", "half", "use_fp16") === true) return true;
  const precision = paramText(run.params, "precision", "mixed_precision", "amp_dtype", "dtype")?.toLowerCase() ?? "";
  return /^(?:16|16-mixed|fp16|float16|half)$/.test(precision.trim());
}

/** A learning-rate schedule was configured (anything but constant/none). */
export function schedulerConfigured(run: TrainingRun): string | null {
  const s = paramText(run.params, "scheduler", "lr_scheduler", "lr_scheduler_type", "lr_schedule", "schedule");
  return s && !/^(?:constant|none|null|false|no)$/i.test(s.trim()) ? s : null;
}

/** Whether a plateau-driven schedule (ReduceLROnPlateau) is in use, by params or by its log lines. */
export function plateauScheduler(run: TrainingRun): boolean {
  return Object.values(run.params).some((v) => /ReduceLROnPlateau|reduce_on_plateau|plateau/i.test(v)) || (run.logs.counts.lr_reduced ?? 0) > 0;
}

/** Early stopping was configured or reported. */
export function earlyStopping(run: TrainingRun): boolean {
  if (paramFlag(run.params, "early_stopping", "early_stop", "use_early_stopping") === true) return true;
  if (paramNumber(run.params, "early_stopping_patience", "patience") !== null) return true;
  if (Object.values(run.params).some((v) => /EarlyStopping/.test(v))) return true;
  return (run.logs.counts.early_stopping ?? 0) > 0;
}

/**
 * Whether the best checkpoint (by validation) is what the run keeps: restore_best_weights, load_best_model_at_end,
 * ModelCheckpoint save_top_k ≥ 1, a best_model_checkpoint, or a "restoring best" log line. False when the params
 * say the opposite (save_top_k=0, restore_best_weights False); null when nothing is said.
 */
export function bestCheckpointKept(run: TrainingRun): boolean | null {
  const restore = paramFlag(run.params, "restore_best_weights", "load_best_model_at_end", "restore_best");
  if (restore === true || run.meta.bestCheckpoint || (run.logs.counts.restored_best ?? 0) > 0) return true;
  const topK = Object.values(run.params).map((v) => /save_top_k\s*=\s*(-?\d+)/.exec(v)?.[1]).find((v) => v !== undefined) ?? paramText(run.params, "save_top_k");
  if (topK !== undefined && topK !== null && Number(topK) !== 0) return true;
  if (restore === false || (topK !== undefined && topK !== null && Number(topK) === 0)) return false;
  return null;
}

/** Augmentations that make training batches harder than validation (deterministic resizing does not). */
const RANDOM_AUGMENTATION = /random|flip|jitter|mixup|cutmix|auto ?augment|rand ?augment|trivial ?augment|rotat|noise|erasing|affine|^\s*(?:true|yes|1)\s*$/i;

/** Benign reasons for validation to look better than training: dropout or augmentation only in training. */
export function trainOnlyRegularization(run: TrainingRun): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(run.params)) {
    if (/dropout/i.test(k) && Number(v) > 0) out.push(`${k}=${v}`);
    else if (/augment/i.test(k) && RANDOM_AUGMENTATION.test(v)) out.push(`${k}=${v}`);
    else if (/label_smoothing/i.test(k) && Number(v) > 0) out.push(`${k}=${v}`);
  }
  return out;
}
