import type { ColumnStats, DatasetStats, MlflowDatasetInfo } from "./model.js";
import { ALL_SPLITS, readClassDistribution } from "./parse/classes.js";
import { isLegacyImageStatistics, readChannelStats, readLegacyImageStatistics } from "./parse/channels.js";
import { readColumn, readColumnMap, readDescribe } from "./parse/columns.js";
import { readCorrelations } from "./parse/correlations.js";
import { readCountShare } from "./parse/counts.js";
import { readDrift } from "./parse/drift.js";
import { readLabelSignals, readTimeSplit } from "./parse/label-signal.js";
import { isMlflowDataset, readMlflowDataset } from "./parse/mlflow.js";
import { deriveTargetClasses } from "./parse/target.js";
import { canonicalSplit } from "./splits.js";
import { isRecord, type JsonRecord, toFinite, toText } from "../../artifacts/json-values.js";

export type { DatasetStats } from "./model.js";

const KNOWN_METADATA = new Set(["task", "modality", "target", "label", "label_column", "target_column", "batch_size", "cv_folds", "n_splits", "split_strategy"]);

function splitRowsOf(splits: unknown, classCounts: Record<string, Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  if (isRecord(splits)) {
    for (const [name, s] of Object.entries(splits)) {
      const n = isRecord(s) ? toFinite(s.num_rows ?? s.num_samples ?? s.rows ?? s.size) : toFinite(s);
      if (n !== null) out[canonicalSplit(name)] = n;
    }
  }
  // Class counts of a split are its row count when the artifact gives no other.
  for (const [split, c] of Object.entries(classCounts)) {
    if (split !== ALL_SPLITS && out[split] === undefined) out[split] = Object.values(c).reduce((a, b) => a + b, 0);
  }
  return out;
}

/** `splits.<name>.class_distribution`, merged under canonical split names. */
function splitClassCounts(splits: unknown): Record<string, Record<string, number>> {
  if (!isRecord(splits)) return {};
  const nested = Object.fromEntries(
    Object.entries(splits).flatMap(([name, s]) => (isRecord(s) && isRecord(s.class_distribution) ? [[name, s.class_distribution]] : [])),
  );
  return readClassDistribution(nested);
}

/**
 * Normalizes `dataset_artifacts` (current `{metadata, statistics}` or the legacy flat image statistics) into
 * one model. Throws when the artifact has no statistic this analyzer understands.
 */
export function parseDatasetArtifact(payload: Record<string, unknown>, field = "dataset_artifacts"): DatasetStats {
  const metadata = isRecord(payload.metadata) ? payload.metadata : {};
  const rawStats: JsonRecord = isRecord(payload.statistics) ? payload.statistics : {};
  const base = `${field}.statistics`;
  const shapes: string[] = [];

  let mlflow: MlflowDatasetInfo | null = null;
  let mlflowColumns: ColumnStats[] = [];
  const mlflowSource = mlflowDatasetIn(rawStats, base);
  if (mlflowSource) {
    const read = readMlflowDataset(mlflowSource.v, mlflowSource.path, toText(metadata["mlflow.data.context"]));
    mlflow = read.info;
    mlflowColumns = read.columns;
    shapes.push("mlflow_dataset");
  }

  const classCounts = { ...readClassDistribution(rawStats.class_distribution), ...splitClassCounts(rawStats.splits) };
  if (Object.keys(classCounts).length) shapes.push("class_distribution");
  const splitRows = splitRowsOf(rawStats.splits, classCounts);
  const legacy = isLegacyImageStatistics(rawStats) ? readLegacyImageStatistics(rawStats, base) : null;
  if (legacy) {
    Object.assign(splitRows, legacy.splitRows);
    shapes.push("legacy_image_statistics");
  }
  const numRows = toFinite(rawStats.num_rows ?? rawStats.num_samples) ?? mlflow?.numRows ?? sumOrNull(Object.values(splitRows));
  const rowCandidates = [splitRows.train, numRows].filter((n): n is number => typeof n === "number");

  const columns = [
    ...readColumnMap(rawStats.columns, `${base}.columns`, rowCandidates),
    ...readDescribe(rawStats.describe, `${base}.describe`, rowCandidates),
  ];
  if (rawStats.columns !== undefined && columns.length) shapes.push("columns");
  if (isRecord(rawStats.describe)) shapes.push("describe");
  const seen = new Set(columns.map((c) => c.name));
  columns.push(...mlflowColumns.filter((c) => !seen.has(c.name)));
  const correlationKey = ["feature_label_correlation", "label_correlation", "pps"].find((k) => isRecord(rawStats[k]));
  if (correlationKey) {
    applyLabelPredictiveness(columns, rawStats[correlationKey] as JsonRecord, `${base}.${correlationKey}`);
    shapes.push(correlationKey);
  }

  const target = toText(metadata.target) ?? toText(metadata.label) ?? toText(metadata.label_column) ?? toText(metadata.target_column);
  let classPath = `${base}.class_distribution`;
  const targetColumn = columns.find((c) => c.name === target);
  const derived = Object.keys(classCounts).length === 0 ? deriveTargetClasses(targetColumn) : null;
  if (derived && targetColumn) {
    classCounts[ALL_SPLITS] = derived;
    classPath = targetColumn.path;
  }

  const trainRows = splitRows.train ?? numRows;
  const evalRows = splitRows.test ?? splitRows.val ?? null;
  const channels = { ...(legacy?.channels ?? {}), ...readChannelStats(rawStats.channel_stats ?? rawStats.image_stats, `${base}.channel_stats`) };
  if (Object.keys(channels).length && !legacy) shapes.push("channel_stats");

  const correlationsKey = ["correlations", "feature_correlations", "correlation_matrix"].find((k) => rawStats[k] !== undefined);
  const correlations = correlationsKey ? readCorrelations(rawStats[correlationsKey], `${base}.${correlationsKey}`) : [];
  if (correlations.length) shapes.push("correlations");
  const drift = readDrift(rawStats.drift, `${base}.drift`);
  if (drift.length) shapes.push("drift");
  const labelSignals = readLabelSignals(rawStats.label_signal, `${base}.label_signal`);
  if (labelSignals.length) {
    applyLabelPredictiveness(columns, Object.fromEntries(labelSignals.map((s) => [s.column, s.train])), `${base}.label_signal`, false);
    shapes.push("label_signal");
  }
  const timeSplit = readTimeSplit(rawStats.time_split, `${base}.time_split`);
  if (timeSplit) shapes.push("time_split");

  const stats: DatasetStats = {
    field,
    shapes,
    datasetName: toText(payload.dataset_name) ?? mlflow?.name ?? toText(metadata.name),
    task: toText(metadata.task)?.toLowerCase() ?? null,
    modality: toText(metadata.modality)?.toLowerCase() ?? (legacy || Object.keys(channels).length ? "image" : null),
    target,
    splitStrategy: toText(metadata.split_strategy),
    metadata: Object.fromEntries(Object.entries(metadata).filter(([k]) => !KNOWN_METADATA.has(k))),
    numRows,
    splitRows,
    classCounts,
    classPath,
    columns,
    duplicates: readCountShare(rawStats.duplicates ?? rawStats.duplicate_rows, `${base}.duplicates`, trainRows),
    trainTestOverlap: readCountShare(rawStats.train_test_overlap ?? rawStats.overlap, `${base}.train_test_overlap`, evalRows),
    conflictingLabels: readCountShare(rawStats.conflicting_labels, `${base}.conflicting_labels`, trainRows),
    labelIssues: readCountShare(rawStats.label_issues ?? rawStats.label_noise, `${base}.label_issues`, trainRows),
    channels,
    drift,
    correlations,
    labelSignals,
    timeSplit,
    mlflow,
    batchSize: toFinite(metadata.batch_size),
    cvFolds: toFinite(metadata.cv_folds ?? metadata.n_splits),
  };
  for (const key of ["duplicates", "trainTestOverlap", "conflictingLabels", "labelIssues"] as const) {
    if (stats[key]) shapes.push(key);
  }
  if (shapes.length === 0 && numRows === null && Object.keys(splitRows).length === 0) {
    const keys = Object.keys(rawStats).slice(0, 8).join(", ") || "none";
    throw new Error(`${base}: no statistics this analyzer understands (keys: ${keys}); expected num_rows, splits, class_distribution, columns, describe, an MLflow dataset or legacy image statistics`);
  }
  return stats;
}

/**
 * `{column: PPS | mutual information | |r|}` with the label, merged into the column statistics; with `override`
 * false, a score the column states itself is kept.
 */
function applyLabelPredictiveness(columns: ColumnStats[], scores: JsonRecord, path: string, override = true): void {
  for (const [name, v] of Object.entries(scores)) {
    const score = toFinite(v);
    if (score === null) continue;
    const col = columns.find((c) => c.name === name);
    if (col) col.labelPredictiveness = override || col.labelPredictiveness === null ? score : col.labelPredictiveness;
    else columns.push({ ...readColumn(name, {}, `${path}.${name}`, null), labelPredictiveness: score });
  }
}

/** The MLflow dataset, as `statistics` itself or under `statistics.mlflow_dataset`. */
function mlflowDatasetIn(stats: JsonRecord, base: string): { v: JsonRecord; path: string } | null {
  const nested: unknown = stats.mlflow_dataset;
  if (isMlflowDataset(stats)) return { v: stats, path: base };
  return isMlflowDataset(nested) ? { v: nested, path: `${base}.mlflow_dataset` } : null;
}

function sumOrNull(values: number[]): number | null {
  return values.length ? values.reduce((a, b) => a + b, 0) : null;
}
