/** A training history: one series per metric name, steps ascending. */
export interface MetricSeries {
  name: string;
  steps: number[];
  values: number[];
}

export interface TrainingRun {
  series: Map<string, MetricSeries>;
  params: Record<string, string>;
  logs: string[];
  format: string;
}

function toNumber(v: unknown): number {
  if (typeof v === "number") return v;
  if (v === "NaN" || v === "nan") return Number.NaN;
  if (v === "Infinity" || v === "inf") return Number.POSITIVE_INFINITY;
  if (v === "-Infinity" || v === "-inf") return Number.NEGATIVE_INFINITY;
  throw new Error(`metric value ${JSON.stringify(v)} is not a number`);
}

/** Reads `{name: [number…]}` and `{name: [{step, value}…]}` (MLflow metric history) into series. */
export function parseTrainingArtifact(payload: Record<string, unknown>): TrainingRun {
  const metrics = payload.metrics;
  if (!metrics || typeof metrics !== "object" || Array.isArray(metrics)) {
    throw new Error("metrics: expected an object of metric name → values");
  }
  const series = new Map<string, MetricSeries>();
  for (const [name, raw] of Object.entries(metrics)) {
    if (!Array.isArray(raw)) continue;
    const points = raw.map((p, i) =>
      p !== null && typeof p === "object"
        ? { step: Number((p as Record<string, unknown>).step ?? i), value: toNumber((p as Record<string, unknown>).value) }
        : { step: i, value: toNumber(p) },
    );
    points.sort((a, b) => a.step - b.step);
    if (points.length > 0) series.set(name, { name, steps: points.map((p) => p.step), values: points.map((p) => p.value) });
  }
  if (series.size === 0) throw new Error("metrics: no numeric series found");
  const params = Object.fromEntries(Object.entries((payload.params as Record<string, unknown>) ?? {}).map(([k, v]) => [k, String(v)]));
  const logs = typeof payload.logs === "string" ? payload.logs.split("\n") : ((payload.logs as string[] | undefined) ?? []);
  return { series, params, logs, format: "metric_arrays" };
}
