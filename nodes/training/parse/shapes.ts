import { readMetricValue } from "./number.js";

/** `metrics.format` values whose data comes as text or bytes inside the artifact. */
export const CONTENT_FORMATS = ["csv", "lightning_csv", "keras_csv", "hf_trainer_state", "tfevents", "jsonl", "catboost_tsv"] as const;

const NAME_KEYS = ["key", "metric", "name", "tag"] as const;

/** The metric name of a long row (`key`, or `metric`/`name`/`tag`), if it is one. */
export function longRowName(row: Record<string, unknown>): string | undefined {
  return NAME_KEYS.map((k) => row[k]).find((k): k is string => typeof k === "string");
}

/** Whether rows are long `{key, value, step, timestamp}` records rather than wide `{epoch, <metric>…}` rows. */
export function isLongRows(rows: readonly unknown[]): boolean {
  const first = rows.find((r) => r !== null && typeof r === "object") as Record<string, unknown> | undefined;
  return !!first && "value" in first && longRowName(first) !== undefined;
}

/** Keys that are clearly metrics, so text there is a mistake rather than bookkeeping (a run id, a date). */
const METRIC_KEY = /loss|acc|f1|auc|lr|learning_rate|norm|precision|recall|error|score/i;

/** Cells of wide rows that are skipped: flags and bookkeeping text. */
export function isBookkeepingCell(key: string, v: unknown): boolean {
  return typeof v === "boolean" || (typeof v === "string" && readMetricValue(v) === undefined && !METRIC_KEY.test(key));
}

/** Why a wide-row cell is not a metric value, or null when it is one (or is skipped bookkeeping). */
export function wideCellProblem(key: string, v: unknown): string | null {
  if (isBookkeepingCell(key, v) || readMetricValue(v) !== undefined) return null;
  return `expected a number (or null, "NaN", "Infinity"), got ${JSON.stringify(v)?.slice(0, 40) ?? typeof v}`;
}
