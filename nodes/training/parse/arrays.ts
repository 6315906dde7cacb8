import { Float64Column } from "../../../artifacts/float64-column.js";
import { readMetricValue } from "./number.js";
import type { SeriesBuilder } from "./series-builder.js";

/** Point objects as MLflow's metric history and similar exports write them. */
type PointObject = Record<string, unknown>;

const isPointObject = (p: unknown): p is PointObject => p !== null && typeof p === "object" && !Array.isArray(p);

/**
 * Reads `{name: [number…]}` (index = step) and `{name: [{step, value, timestamp?, epoch?}…]}` (MLflow metric
 * history: unordered, several values per step, "NaN"/"Infinity" strings); a number array may come as a Float64Column
 * (see readsAsColumn). Returns whether any point was an object.
 */
export function readMetricArrays(metrics: Record<string, unknown>, out: SeriesBuilder): boolean {
  let history = false;
  for (const [name, raw] of Object.entries(metrics)) {
    if (raw instanceof Float64Column) {
      // No room reserved: a column may become the series' values as it is (pushColumn).
      out.columns(name).pushColumn(raw);
      continue;
    }
    if (!Array.isArray(raw)) continue;
    const cols = out.columns(name, raw.length);
    for (let i = cols.pushIndexed(raw, 0); i < raw.length; i = cols.pushIndexed(raw, i + 1)) {
      const p: unknown = raw[i];
      if (isPointObject(p)) {
        history = true;
        const value = typeof p.value === "number" ? p.value : metricValue(p.value, () => `metrics.${name}[${i}].value`);
        if (value !== null) cols.push(axisValue(p.step, i), value, axisValue(p.epoch, Number.NaN), axisValue(p.timestamp, Number.NaN));
      } else {
        const value = metricValue(p, () => `metrics.${name}[${i}]`);
        if (value !== null) cols.push(i, value, Number.NaN, Number.NaN);
      }
    }
  }
  return history;
}

/** A metric value, or null when missing; anything else is an error naming the path (built only then). */
export function metricValue(v: unknown, path: () => string): number | null {
  const value = readMetricValue(v);
  if (value === undefined) throw new Error(`${path()}: expected a number, got ${JSON.stringify(v)?.slice(0, 40)}`);
  return value;
}

/** A step, epoch or timestamp: a finite number (or numeric string, as int64 may arrive), else the fallback. */
export function axisValue(v: unknown, fallback: number): number {
  if (typeof v === "number") return Number.isFinite(v) ? v : fallback;
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : fallback;
}
