import { isAxisName, STEP_NAMES } from "../names.js";
import { axisValue, metricValue } from "./arrays.js";
import type { SeriesBuilder } from "./series-builder.js";
import { isBookkeepingCell, longRowName } from "./shapes.js";
import { nanGaps } from "./sparse-gaps.js";

/** Reads MLflow-style long rows `[{key, value, step, timestamp}…]`, in any order. */
export function readLongRows(rows: readonly unknown[], out: SeriesBuilder): void {
  rows.forEach((r, i) => {
    if (r === null || typeof r !== "object") return;
    const row = r as Record<string, unknown>;
    const key = longRowName(row);
    if (!key) return;
    const value = metricValue(row.value, () => `metrics[${i}].value`);
    if (value === null) return;
    out.add(key, axisValue(row.step, i), value, axisValue(row.epoch, Number.NaN), axisValue(row.timestamp, Number.NaN));
  });
}

/**
 * Reads wide rows `[{epoch?, step?, <metric>: number…}…]` as Keras History rows and Lightning's sparse rows
 * come: missing keys and nulls are gaps, and so are the NaNs pandas writes for empty cells (see nanGaps); the x
 * axis is `step`, else `epoch`, else the row index. Flags and bookkeeping text (a run id, a date) are skipped; a
 * non-numeric metric value is an error.
 */
export function readWideRows(rows: readonly unknown[], out: SeriesBuilder): void {
  const axes: Array<{ step: number; epoch: number; stamp: number }> = [];
  const columns = new Map<string, { rows: number[]; values: number[] }>();
  rows.forEach((r, i) => {
    if (r === null || typeof r !== "object") return;
    const row = r as Record<string, unknown>;
    const epoch = axisValue(row.epoch, Number.NaN);
    const stepKey = STEP_NAMES.find((k) => k in row) ?? "step";
    axes[i] = { step: axisValue(row[stepKey], Number.isNaN(epoch) ? i : epoch), epoch, stamp: axisValue(row.timestamp, Number.NaN) };
    for (const [key, v] of Object.entries(row)) {
      if (isAxisName(key) || isBookkeepingCell(key, v)) continue;
      const value = metricValue(v, () => `metrics[${i}].${key}`);
      if (value === null) continue;
      let col = columns.get(key);
      if (!col) columns.set(key, (col = { rows: [], values: [] }));
      col.rows.push(i);
      col.values.push(value);
    }
  });
  for (const [key, col] of columns) {
    const gap = nanGaps(col.values);
    col.values.forEach((value, j) => {
      if (gap(j)) return;
      const { step, epoch, stamp } = axes[col.rows[j]!]!;
      out.add(key, step, value, epoch, stamp);
    });
  }
}

/**
 * A column table `{step: […], epoch: […], <metric>: […]}` (pandas `to_dict("list")` of a metrics file) as the
 * rows it came from, or null when `metrics` is not one: every value an array of one length, one of them an axis.
 */
export function columnTableRows(metrics: Record<string, unknown>): Record<string, unknown>[] | null {
  const entries = Object.entries(metrics);
  if (entries.length < 2 || !entries.every(([, v]) => Array.isArray(v))) return null;
  const n = (entries[0]![1] as unknown[]).length;
  if (!entries.some(([k]) => isAxisName(k)) || !entries.every(([, v]) => (v as unknown[]).length === n)) return null;
  return Array.from({ length: n }, (_, i) => Object.fromEntries(entries.map(([k, v]) => [k, (v as unknown[])[i]])));
}
