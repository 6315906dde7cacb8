import { isAxisName } from "../names.js";

/** A split word at the start of a column name (train_loss, valid_loss, eval_top1, val/box_loss). */
const HAS_SPLIT = /^(?:train|training|valid|validation|val|eval|test)[_/]/i;

/**
 * The metric names of a CSV's columns, where a layout's header says less than its numbers mean. fastai's CSVLogger
 * (`epoch,train_loss,valid_loss,accuracy,error_rate,time`) computes its metrics on the validation set, so its bare
 * `accuracy` is `valid_accuracy`; other layouts (Ultralytics results.csv, timm summary.csv, Lightning, Keras) name
 * their columns fully and are kept as they are.
 */
export function metricColumnNames(header: readonly string[]): string[] {
  const lower = header.map((h) => h.toLowerCase());
  const fastai = lower.includes("train_loss") && lower.includes("valid_loss") && lower[lower.length - 1] === "time";
  if (!fastai) return [...header];
  return header.map((h) => (isAxisName(h) || h === "" || HAS_SPLIT.test(h) ? h : `valid_${h}`));
}
