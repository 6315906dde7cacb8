import { MODEL_QUANTITIES, quantityOf } from "./metric-quantities.js";
import type { Aggregation, MetricName, Split } from "./model.js";

const SPLIT_WORDS: Record<string, Split> = {
  train: "train",
  training: "train",
  trn: "train",
  tr: "train",
  val: "val",
  valid: "val",
  validation: "val",
  eval: "val",
  evaluation: "val",
  dev: "val",
  test: "test",
  tst: "test",
  // CatBoost's name for the training set.
  learn: "train",
};

/** Names that are axes or bookkeeping, not metrics. */
const AXIS_NAMES = new Set(["step", "epoch", "global_step", "timestamp", "time", "wall_time", "walltime", "created_at", "datetime", "date", "_runtime", "_timestamp", "_step", "iteration", "iter", "round"]);

/** Names of the step axis, first preferred: boosting and custom loops count iterations or rounds. */
export const STEP_NAMES = ["step", "global_step", "_step", "iteration", "iter", "round"] as const;

/** Whether a column/key is an axis or bookkeeping field rather than a metric. */
export function isAxisName(raw: string): boolean {
  return AXIS_NAMES.has(raw.trim().toLowerCase());
}

/** Ultralytics' task tag on its metrics: metrics/mAP50(B) for boxes, (M) for masks, (P) for poses. */
const ULTRALYTICS_TASK = /\([bmp]\)$/;
const LR = /^(?:lr|learning[_ -]?rate)(?:$|[-_/ ])/;
const OPTIMIZER_STATE = /momentum|beta|weight[_-]?decay/;
const GRAD_NORM = /^(?:grad(?:ient)?[_-]?norm|grad_\d+(?:\.\d+)?_norm[_/]total|global[_-]?grad[_-]?norm|grad_norm_total)$/;
const LOSS_SCALE = /^(?:loss[_-]?scale|scaler[_-]?scale|amp[_-]?scale|grad[_-]?scale)$/;

/**
 * Normalizes a logged metric name into split + quantity: `train_loss`, `loss`, `train/loss`, `loss_epoch` →
 * (train, loss); `val_loss`, `eval_loss`, `valid/loss`, `Loss/val` → (val, loss); `lr-AdamW`, `learning_rate` →
 * lr; `grad_norm`, `gradient_norm` → grad_norm. Lightning's `_step`/`_epoch` suffixes become the aggregation.
 * Boosting names (`validation_0-logloss`, `valid-binary_logloss`, `learn`'s CatBoost metrics) and Ultralytics'
 * (`metrics/mAP50(B)`: a validation metric) are read by the same rules; docs/artifacts.md has the table.
 */
export function normalizeMetricName(raw: string): MetricName {
  let s = raw.trim().toLowerCase().replace(/\s+/g, "_");
  let aggregation: Aggregation = null;
  const suffix = /[_/](step|epoch)$/.exec(s);
  if (suffix && s.length > suffix[0].length) {
    aggregation = suffix[1] as Aggregation;
    s = s.slice(0, -suffix[0].length);
  } else if (s.startsWith("epoch_") && s.length > 6) {
    aggregation = "epoch"; // Keras TensorBoard callback: epoch_loss, epoch_accuracy
    s = s.slice(6);
  }
  const optimizer = optimizerQuantity(s);
  if (optimizer) return named("none", optimizer, aggregation);

  let split: Split | null = null;
  let set = "";
  const tagged = ULTRALYTICS_TASK.test(s);
  s = s.replace(ULTRALYTICS_TASK, "");
  const prefix = /^([a-z]+)(?:_(\d+))?[_/.-](.+)$/.exec(s);
  const trailing = /^(.+)[_/.-]([a-z]+)$/.exec(s);
  if (prefix && (SPLIT_WORDS[prefix[1]!] || (prefix[1] === "metrics" && tagged))) {
    split = SPLIT_WORDS[prefix[1]!] ?? "val";
    // XGBoost's validation_0, validation_1 (LightGBM's valid_0…): the first evaluation set is the split, later
    // ones stay series of their own (docs/decisions.md).
    if (prefix[2] !== undefined && Number(prefix[2]) > 0) set = `_${Number(prefix[2])}`;
    s = prefix[3]!;
  } else if (trailing && SPLIT_WORDS[trailing[2]!]) {
    split = SPLIT_WORDS[trailing[2]!]!;
    s = trailing[1]!;
  }
  if (split && aggregation === null && s.startsWith("epoch_") && s.length > 6) {
    aggregation = "epoch"; // the Keras TensorBoard callback's pair: train/epoch_loss, validation/epoch_loss
    s = s.slice(6);
  }
  const inner = optimizerQuantity(s);
  if (inner) return named("none", inner, aggregation);
  const quantity = quantityOf(s);
  return named(split ?? (MODEL_QUANTITIES.has(quantity) ? "train" : "none"), quantity, aggregation, set);
}

function optimizerQuantity(s: string): string | null {
  if (LR.test(s) && !OPTIMIZER_STATE.test(s)) return "lr";
  if (GRAD_NORM.test(s)) return "grad_norm";
  if (LOSS_SCALE.test(s)) return "loss_scale";
  return null;
}

function named(split: Split, quantity: string, aggregation: Aggregation, set = ""): MetricName {
  const base = split === "none" ? quantity : `${split}${set}/${quantity}`;
  return { name: aggregation ? `${base}@${aggregation}` : base, split, quantity, aggregation };
}

/** The name without its aggregation suffix: "train/loss@step" → "train/loss". */
export function baseName(name: string): string {
  const at = name.indexOf("@");
  return at < 0 ? name : name.slice(0, at);
}
