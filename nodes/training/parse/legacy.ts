import { isAxisName } from "../names.js";
import { axisValue, metricValue } from "./arrays.js";
import type { SeriesBuilder } from "./series-builder.js";

/**
 * Reads the original Python client's `metrics_values` column map, wide (one column per metric plus
 * `step`/`epoch`) or long (`key`, `value`, `step`, `timestamp` columns, as it exported MLflow metrics).
 */
export function readMetricsValues(columns: Record<string, unknown[]>, out: SeriesBuilder): void {
  const column = (name: string) => Object.entries(columns).find(([k]) => k.toLowerCase() === name)?.[1];
  const steps = column("step");
  const epochs = column("epoch");
  const stamps = column("timestamp");
  const keys = column("key") ?? column("metric");
  const at = (col: unknown[] | undefined, i: number) => (col ? axisValue(col[i], Number.NaN) : Number.NaN);
  const values = column("value");
  if (keys && values) {
    keys.forEach((key, i) => {
      if (typeof key !== "string") return;
      const value = metricValue(values[i], () => `metrics_values.value[${i}]`);
      const step = at(steps, i);
      if (value !== null) out.add(key, Number.isNaN(step) ? i : step, value, at(epochs, i), at(stamps, i));
    });
    return;
  }
  for (const [name, col] of Object.entries(columns)) {
    if (isAxisName(name)) continue;
    const cols = out.columns(name);
    col.forEach((v, i) => {
      const value = metricValue(v, () => `metrics_values.${name}[${i}]`);
      if (value === null) return;
      const epoch = at(epochs, i);
      const step = at(steps, i);
      cols.push(Number.isNaN(step) ? (Number.isNaN(epoch) ? i : epoch) : step, value, epoch, at(stamps, i));
    });
  }
}
