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
};

const QUANTITY_ALIASES: Record<string, string> = {
  loss: "loss",
  acc: "accuracy",
  accuracy: "accuracy",
  categorical_accuracy: "accuracy",
  sparse_categorical_accuracy: "accuracy",
  binary_accuracy: "accuracy",
  f1: "f1",
  f1_score: "f1",
  f1score: "f1",
  macro_f1: "f1",
  f1_macro: "f1",
  auc: "auc",
  roc_auc: "auc",
  auroc: "auc",
  auc_roc: "auc",
  ppl: "perplexity",
  perplexity: "perplexity",
};

/** Quantities that describe the model's fit on a split; a bare name ("loss", "accuracy") is the train split. */
const MODEL_QUANTITIES = new Set(["loss", "accuracy", "f1", "auc", "perplexity", "precision", "recall"]);

/** Names that are axes or bookkeeping, not metrics. */
const AXIS_NAMES = new Set(["step", "epoch", "global_step", "timestamp", "time", "wall_time", "walltime", "created_at", "datetime", "date", "_runtime", "_timestamp", "_step"]);

/** Whether a column/key is an axis or bookkeeping field rather than a metric. */
export function isAxisName(raw: string): boolean {
  return AXIS_NAMES.has(raw.trim().toLowerCase());
}

const LR = /^(?:lr|learning[_ -]?rate)(?:$|[-_/ ])/;
const OPTIMIZER_STATE = /momentum|beta|weight[_-]?decay/;
const GRAD_NORM = /^(?:grad(?:ient)?[_-]?norm|grad_\d+(?:\.\d+)?_norm[_/]total|global[_-]?grad[_-]?norm|grad_norm_total)$/;
const LOSS_SCALE = /^(?:loss[_-]?scale|scaler[_-]?scale|amp[_-]?scale|grad[_-]?scale)$/;

/**
 * Normalizes a logged metric name into split + quantity: `train_loss`, `loss`, `train/loss`, `loss_epoch` →
 * (train, loss); `val_loss`, `eval_loss`, `valid/loss`, `Loss/val` → (val, loss); `lr-AdamW`, `learning_rate` →
 * lr; `grad_norm`, `gradient_norm` → grad_norm. Lightning's `_step`/`_epoch` suffixes become the aggregation.
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
  const prefix = /^([a-z]+)[_/.-](.+)$/.exec(s);
  const trailing = /^(.+)[_/.-]([a-z]+)$/.exec(s);
  if (prefix && SPLIT_WORDS[prefix[1]!]) {
    split = SPLIT_WORDS[prefix[1]!]!;
    s = prefix[2]!;
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
  const quantity = QUANTITY_ALIASES[s] ?? s;
  return named(split ?? (MODEL_QUANTITIES.has(quantity) ? "train" : "none"), quantity, aggregation);
}

function optimizerQuantity(s: string): string | null {
  if (LR.test(s) && !OPTIMIZER_STATE.test(s)) return "lr";
  if (GRAD_NORM.test(s)) return "grad_norm";
  if (LOSS_SCALE.test(s)) return "loss_scale";
  return null;
}

function named(split: Split, quantity: string, aggregation: Aggregation): MetricName {
  const base = split === "none" ? quantity : `${split}/${quantity}`;
  return { name: aggregation ? `${base}@${aggregation}` : base, split, quantity, aggregation };
}

/** The name without its aggregation suffix: "train/loss@step" → "train/loss". */
export function baseName(name: string): string {
  const at = name.indexOf("@");
  return at < 0 ? name : name.slice(0, at);
}
