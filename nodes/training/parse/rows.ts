import { isAxisName } from "../names.js";
import { axisValue, metricValue } from "./arrays.js";
import type { SeriesBuilder } from "./series-builder.js";
import { isBookkeepingCell, longRowName } from "./shapes.js";

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
 * come: missing keys and nulls are gaps; the x axis is `step`, else `epoch`, else the row index. Flags and
 * bookkeeping text (a run id, a date) are skipped; a non-numeric metric value is an error.
 */
export function readWideRows(rows: readonly unknown[], out: SeriesBuilder): void {
  rows.forEach((r, i) => {
    if (r === null || typeof r !== "object") return;
    const row = r as Record<string, unknown>;
    const epoch = axisValue(row.epoch, Number.NaN);
    const step = axisValue(row.step, Number.isNaN(epoch) ? i : epoch);
    const stamp = axisValue(row.timestamp, Number.NaN);
    for (const [key, v] of Object.entries(row)) {
      if (isAxisName(key) || isBookkeepingCell(key, v)) continue;
      const value = metricValue(v, () => `metrics[${i}].${key}`);
      if (value !== null) out.add(key, step, value, epoch, stamp);
    }
  });
}
