import type { CountShare } from "../model.js";
import { isRecord, toFinite } from "../../../artifacts/json-values.js";

/**
 * A count-or-share statistic (`duplicates`, `train_test_overlap`, …): a number (an integer ≥ 1 is a count, a
 * value in [0, 1) a fraction) or `{count, fraction | ratio | share | percent}`. The missing half is derived from
 * `rows` when it is known.
 */
export function readCountShare(value: unknown, path: string, rows: number | null): CountShare | null {
  let count: number | null = null;
  let fraction: number | null = null;
  if (typeof value === "number" || typeof value === "string") {
    const n = toFinite(value);
    if (n === null || n < 0) return null;
    if (Number.isInteger(n) && n !== 1) count = n;
    else if (n <= 1) fraction = n;
    else count = n;
    if (n === 0) fraction = 0;
  } else if (isRecord(value)) {
    count = toFinite(value.count ?? value.n ?? value.num);
    fraction = toFinite(value.fraction ?? value.ratio ?? value.share ?? value.rate);
    const percent = toFinite(value.percent ?? value.percentage);
    if (fraction === null && percent !== null) fraction = percent / 100;
  } else {
    return null;
  }
  if (fraction === null && count !== null && rows) fraction = count / rows;
  if (count === null && fraction !== null && rows) count = Math.round(fraction * rows);
  if (count === null && fraction === null) return null;
  return { count, fraction, path };
}
