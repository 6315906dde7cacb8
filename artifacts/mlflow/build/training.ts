import { isRecord } from "../../json-values.js";
import { basename, dirnameOf } from "../discover.js";
import type { PulledDocument } from "../documents.js";
import { keyValues, type Metric, type Run } from "../schemas.js";

/** Where the metrics came from, best first (a file keeps structure the tracking server flattens). */
export type MetricsSource =
  | { from: "document"; doc: PulledDocument; metrics: unknown }
  | { from: "history"; histories: Record<string, Metric[]> };

export interface TrainingParts {
  run: Run;
  /** A `training_artifacts.json` payload or the legacy client's `training_artifacts.yaml`. */
  base: Record<string, unknown> | null;
  metrics: MetricsSource | null;
  /** Lightning hparams.yaml / legacy params.yaml, parsed. */
  hparams: PulledDocument[];
  logs: PulledDocument[];
}

/** Run tags that say nothing to an analyzer, or are large JSON blobs. */
const NOISY_TAG = /^mlflow\.(log-model\.history|source\.git\.diff|databricks\.)|^mlflow\.note\.content$/;

/** Builds `training_artifacts` from a run's files, histories, params and tags; null when it has no metrics or logs. */
export function buildTraining(parts: TrainingParts): Record<string, unknown> | null {
  const base = parts.base ?? {};
  const hasMetrics = base.metrics !== undefined || base.metrics_values !== undefined;
  const metrics = hasMetrics ? {} : parts.metrics ? { metrics: metricsPayload(parts.metrics) } : {};
  const lines = parts.logs.filter((d) => d.text.trim() !== "").flatMap((d) => d.text.replace(/\r?\n$/, "").split(/\r?\n/));
  const logs = base.logs !== undefined ? {} : lines.length > 0 ? { logs: lines } : {};
  if (!hasMetrics && !("metrics" in metrics) && !("logs" in logs) && base.logs === undefined) return null;

  const params = { ...flattenHparams(parts.hparams), ...keyValues(parts.run.data.params), ...(isRecord(base.params) ? base.params : {}) };
  const metadata = { ...(isRecord(base.metadata) ? base.metadata : {}), mlflow: runMetadata(parts) };
  return { ...base, ...metrics, ...logs, ...(Object.keys(params).length > 0 ? { params } : {}), metadata };
}

/** The payload's `metrics` for a source, in the shapes of ARTIFACTS.md. */
function metricsPayload(source: MetricsSource): unknown {
  if (source.from === "document") return source.metrics;
  const out: Record<string, { step: number; value: number; timestamp?: number }[]> = {};
  for (const [key, points] of Object.entries(source.histories)) {
    out[key] = [...points]
      .sort((a, b) => a.step - b.step || (a.timestamp ?? 0) - (b.timestamp ?? 0))
      .map((p) => ({ step: p.step, value: p.value, ...(p.timestamp !== undefined ? { timestamp: p.timestamp } : {}) }));
  }
  return out;
}

/** Where the run and its metrics came from, so findings can say so. */
function runMetadata(parts: TrainingParts): Record<string, unknown> {
  const { info, data } = parts.run;
  const tags = Object.fromEntries(
    data.tags.filter((t) => !NOISY_TAG.test(t.key) && t.value.length <= 500).map((t) => [t.key, t.value]),
  );
  const source = parts.metrics?.from === "document" ? parts.metrics.doc.path : parts.metrics ? "mlflow metric history" : null;
  return {
    run_id: info.run_id,
    run_name: info.run_name ?? null,
    experiment_id: info.experiment_id,
    status: info.status ?? null,
    start_time: info.start_time ?? null,
    end_time: info.end_time ?? null,
    metrics_source: source,
    metric_keys: data.metrics.map((m) => m.key),
    tags,
  };
}

/** Nested hyper-parameters as dotted keys (`optimizer.lr`), so every value is a scalar or a short list. */
function flattenHparams(docs: readonly PulledDocument[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const walk = (prefix: string, v: unknown) => {
    if (isRecord(v) && prefix.split(".").length < 4) for (const [k, x] of Object.entries(v)) walk(prefix ? `${prefix}.${k}` : k, x);
    else if (prefix) out[prefix] = v;
  };
  for (const doc of docs) if (isRecord(doc.value)) walk("", doc.value);
  return out;
}

/** `lightning_csv`, `keras_csv` or `csv` for a metrics CSV, from where it lives and its header. */
export function csvFormat(path: string, text: string, siblings: readonly string[]): "lightning_csv" | "keras_csv" | "csv" {
  const header = (text.split(/\r?\n/, 1)[0] ?? "").toLowerCase().split(/[,;\t]/).map((h) => h.trim());
  const dir = dirnameOf(path);
  if (/(^|\/)(lightning_logs|csv_logs)\//.test(path) || siblings.includes(`${dir ? `${dir}/` : ""}hparams.yaml`)) return "lightning_csv";
  if (header.includes("epoch") && header.includes("step") && !header.includes("key")) return "lightning_csv";
  if (header[0] === "epoch" && !header.includes("step")) return "keras_csv";
  return "csv";
}

/** Whether a `.log` file is in fact a Keras CSVLogger file (`training.log` with an `epoch,` header). */
export function isKerasCsvLog(doc: PulledDocument): boolean {
  return /^epoch[,;\t]/.test(doc.text) && basename(doc.path).toLowerCase().endsWith(".log");
}
