/** Where a metric was measured; "none" for optimizer quantities (lr, grad_norm, loss_scale). */
export type Split = "train" | "val" | "test" | "none";

/** Lightning's `_step` / `_epoch` suffixes: per-batch values or their epoch aggregate. */
export type Aggregation = "step" | "epoch" | null;

/** A logged metric name normalized into split + quantity. */
export interface MetricName {
  /** "train/loss", "val/accuracy", "lr", "grad_norm"; "@step"/"@epoch" added for Lightning's suffixed logs. */
  name: string;
  split: Split;
  /** "loss", "accuracy", "f1", "auc", "lr", "grad_norm", "loss_scale", … or the tool's own name. */
  quantity: string;
  aggregation: Aggregation;
}

/** One metric's history, ordered by step (then timestamp); values may be NaN/±Infinity as logged. */
export interface MetricSeries extends MetricName {
  /** Names the tool logged that fed this series, e.g. ["val_loss"] or ["eval_loss"]. */
  sources: string[];
  steps: Float64Array;
  values: Float64Array;
  /** Epoch of each point when the tool logged it, NaN where unknown; null when never logged. */
  epochs: Float64Array | null;
}

/** Kinds of events recognized in free-text training logs. */
export const LOG_EVENT_KINDS = [
  "cuda_oom",
  "nonfinite_loss",
  "nonfinite_warning",
  "gradient_overflow",
  "dataloader_error",
  "dataloader_bottleneck",
  "early_stopping",
  "restored_best",
  "lr_reduced",
] as const;
export type LogEventKind = (typeof LOG_EVENT_KINDS)[number];

/** A recognized log line (first few kept per kind). */
export interface LogEvent {
  kind: LogEventKind;
  /** 0-based line number in the logs. */
  line: number;
  text: string;
}

/** What the logs said, bounded: counts per kind and the first lines of each. */
export interface LogSummary {
  lines: number;
  counts: Partial<Record<LogEventKind, number>>;
  events: LogEvent[];
}

/** The metric formats of ARTIFACTS.md, as recognized by the parser. */
export type TrainingFormat =
  | "metric_arrays"
  | "mlflow_history"
  | "wide_rows"
  | "long_rows"
  | "csv"
  | "lightning_csv"
  | "keras_csv"
  | "hf_trainer_state"
  | "tfevents"
  | "legacy_metrics_values"
  | "jsonl"
  | "evals_result"
  | "catboost_tsv"
  /** Metric series read from printed training logs (nodes/training/parse/log-series.ts). */
  | "printed_log"
  | "logs_only";

/** Facts about the run that come with the metrics rather than in them. */
export interface RunMeta {
  /** Points (or rows, or records) read. */
  records: number;
  /** Hugging Face `best_model_checkpoint` / `best_global_step` / `max_steps`. */
  bestCheckpoint: string | null;
  bestStep: number | null;
  maxSteps: number | null;
  /** Size of the evaluation set, when the artifact reveals it (params or HF eval throughput × runtime). */
  valSamples: number | null;
  /** Metric series read from printed logs when no metrics came: the lines that gave points and their styles. */
  logSeries?: { records: number; styles: string[] };
  /** Legacy `metrics_path`: recorded, never read. */
  metricsPath: string | null;
  /** Whether the run is still going (`metadata.status: "running"`) and how long it is meant to be. */
  progress: RunProgress;
  /** The metrics file ends partway through a record or row (absent when it ends cleanly). */
  truncated?: TruncatedLog;
}

/** A metrics file cut off mid-record: what was read before the cut, and what was left unread after it. */
export interface TruncatedLog {
  /** The file cut off (a path of a multi-file upload), or null for the one file sent. */
  file: string | null;
  /** Complete records (event files) or rows (CSV) read before the cut. */
  recordsRead: number;
  /** Bytes after the last complete record or row: the cut one's beginning. */
  bytesLeft: number;
  unit: "records" | "rows";
}

/** A run still training is judged only on what is already certain (docs/detectors.md, partial runs). */
export interface RunProgress {
  running: boolean;
  /** `metadata.expected_total_steps`, else the Trainer's `max_steps`. */
  expectedTotalSteps: number | null;
  /** `metadata.max_epochs`, else the params' `max_epochs`/`epochs`. */
  maxEpochs: number | null;
}

/** A parsed training artifact: one series per normalized metric, the run's params and its log events. */
export interface TrainingRun {
  format: TrainingFormat;
  series: Map<string, MetricSeries>;
  params: Record<string, string>;
  logs: LogSummary;
  meta: RunMeta;
}
