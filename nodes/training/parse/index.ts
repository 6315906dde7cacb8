import { parseTolerantJson } from "../../../artifacts/tolerant-json.js";
import type { RunMeta, TrainingFormat, TrainingRun, TruncatedLog } from "../model.js";
import { isAxisName } from "../names.js";
import { paramNumber } from "../params.js";
import { readProgress } from "./progress.js";
import { readMetricArrays } from "./arrays.js";
import { type CatboostFile, isEvalsResult, readCatboostTsv, readEvalsResult } from "./boosting.js";
import { csvCutTail, readCsvMetrics } from "./csv.js";
import { readTrainerState, type TrainerStateMeta } from "./hf-trainer-state.js";
import { readJsonLines } from "./jsonl.js";
import { readMetricsValues } from "./legacy.js";
import { readLogSeries } from "./log-series.js";
import { logLines, summarizeLogs } from "./logs.js";
import { stringifyParams } from "./stringify-params.js";
import { columnTableRows, readLongRows, readWideRows } from "./rows.js";
import { SeriesBuilder } from "./series-builder.js";
import { CONTENT_FORMATS, isLongRows } from "./shapes.js";
import { readTfEventFiles, readTfEvents } from "./tfevents.js";
import { isRecord } from "../../../artifacts/json-values.js";


/** What one metrics reader found besides the points. */
interface ReadResult {
  format: TrainingFormat;
  records: number;
  state?: TrainerStateMeta;
  truncated?: TruncatedLog;
}

/**
 * Reads `training_artifacts` in any shape of ARTIFACTS.md into one model: series per normalized metric, params as
 * strings, recognized log events. Throws an Error naming the field when the content is recognizable but broken.
 */
export function parseTrainingArtifact(payload: Record<string, unknown>): TrainingRun {
  const builder = new SeriesBuilder();
  const lines = logLines(payload.logs);
  let read: ReadResult | null = null;
  if (payload.metrics !== undefined && payload.metrics !== null) read = readMetrics(payload.metrics, builder);
  else if (isRecord(payload.metrics_values)) {
    readMetricsValues(payload.metrics_values as Record<string, unknown[]>, builder);
    read = { format: "legacy_metrics_values", records: builder.points };
  }
  // Printed logs are the metrics when nothing else is: `python train.py > train.log`.
  const fromLogs = read === null && lines.length > 0 ? readLogSeries(lines, builder) : null;
  const series = builder.finish();
  if (read && series.size === 0) throw new Error(`metrics (${read.format}): no numeric metric found`);
  if (!read && lines.length === 0) throw new Error("training_artifacts: no metrics (metrics or metrics_values) and no logs to analyze");

  const params = stringifyParams({ ...(isRecord(payload.params) ? payload.params : {}) });
  const meta: RunMeta = {
    records: read?.records ?? 0,
    bestCheckpoint: read?.state?.bestCheckpoint ?? null,
    bestStep: read?.state?.bestStep ?? null,
    maxSteps: read?.state?.maxSteps ?? paramNumber(params, "max_steps", "total_steps"),
    valSamples: paramNumber(params, "n_val", "val_size", "num_val_samples", "val_samples", "validation_size", "eval_samples") ?? read?.state?.valSamples ?? null,
    metricsPath: typeof payload.metrics_path === "string" ? payload.metrics_path : null,
    progress: { running: false, expectedTotalSteps: null, maxEpochs: null },
    ...(read?.truncated ? { truncated: read.truncated } : {}),
  };
  meta.progress = readProgress(payload.metadata, meta.maxSteps, params);
  if (fromLogs) meta.logSeries = fromLogs;
  const format = read?.format ?? (series.size > 0 ? "printed_log" : "logs_only");
  return { format, series, params, logs: summarizeLogs(lines), meta };
}

/**
 * Whether the number array at `path` of a payload may be given to parseTrainingArtifact as a Float64Column: the
 * `{name: number[]}` arrays readMetricArrays reads, not those a column table (one of its keys an axis), a trainer
 * state or a content format reads as arrays. Decided from the keys only, so `payload` may hold anything in place of
 * its arrays (a worker asks before rebuilding them).
 */
export function readsAsColumn(payload: Record<string, unknown>, path: ReadonlyArray<string | number>): boolean {
  const { metrics } = payload;
  return (
    path.length === 2 &&
    path[0] === "metrics" &&
    isRecord(metrics) &&
    typeof metrics.format !== "string" &&
    !("log_history" in metrics) &&
    !Object.keys(metrics).some(isAxisName)
  );
}

function readMetrics(metrics: unknown, builder: SeriesBuilder): ReadResult {
  if (Array.isArray(metrics)) {
    if (isLongRows(metrics)) {
      readLongRows(metrics, builder);
      return { format: "long_rows", records: metrics.length };
    }
    readWideRows(metrics, builder);
    return { format: "wide_rows", records: metrics.length };
  }
  if (!isRecord(metrics)) throw new Error("metrics: expected an object or a list of rows");
  if (typeof metrics.format === "string") return readContent(metrics.format, metrics, builder);
  if (Array.isArray(metrics.log_history)) {
    const state = readTrainerState(metrics, builder);
    return { format: "hf_trainer_state", records: metrics.log_history.length, state };
  }
  if (isEvalsResult(metrics)) return { format: "evals_result", records: readEvalsResult(metrics, builder) };
  const table = columnTableRows(metrics);
  if (table) {
    readWideRows(table, builder);
    return { format: "metric_arrays", records: table.length };
  }
  const history = readMetricArrays(metrics, builder);
  return { format: history ? "mlflow_history" : "metric_arrays", records: builder.points };
}

function readContent(format: string, metrics: Record<string, unknown>, builder: SeriesBuilder): ReadResult {
  switch (format) {
    case "csv":
    case "lightning_csv":
    case "keras_csv": {
      if (typeof metrics.content !== "string") throw new Error(`metrics.content: expected the ${format} text`);
      const cut = csvCutTail(metrics.content);
      const records = readCsvMetrics(cut?.kept ?? metrics.content, builder);
      return { format, records, ...(cut ? { truncated: { file: null, recordsRead: records, bytesLeft: cut.bytesLeft, unit: "rows" as const } } : {}) };
    }
    case "jsonl": {
      if (typeof metrics.content !== "string") throw new Error("metrics.content: expected the JSON-lines text");
      return { format, records: readJsonLines(metrics.content, builder).rows };
    }
    case "catboost_tsv": {
      if (!Array.isArray(metrics.files)) throw new Error("metrics.files: expected [{path, content}] of learn_error.tsv and test_error.tsv");
      return { format, records: readCatboostTsv(metrics.files as CatboostFile[], builder) };
    }
    case "hf_trainer_state": {
      const content = typeof metrics.content === "string" ? parseTolerantJson(metrics.content) : metrics.content;
      if (!isRecord(content)) throw new Error("metrics.content: expected the trainer_state.json object");
      const state = readTrainerState(content, builder);
      return { format, records: Array.isArray(content.log_history) ? content.log_history.length : 0, state };
    }
    case "tfevents": {
      const cuts: TruncatedLog[] = [];
      const cutOff = (file: string | null, recordsRead: number, bytesLeft: number) => cuts.push({ file, recordsRead, bytesLeft, unit: "records" });
      let records: number;
      if (Array.isArray(metrics.files)) records = readTfEventFiles(metrics.files, builder, cutOff);
      else if (typeof metrics.content_base64 !== "string") throw new Error("metrics.content_base64: expected the event file, base64-encoded");
      else records = readTfEvents(Buffer.from(metrics.content_base64, "base64"), builder, "", (left, read) => cutOff(null, read, left));
      return { format, records, ...(cuts[0] ? { truncated: cuts[0] } : {}) };
    }
    default:
      throw new Error(`metrics.format: unknown format ${JSON.stringify(format)}; expected one of ${CONTENT_FORMATS.join(", ")}`);
  }
}
