import type { ColumnStats, DatasetStats } from "./model.js";
import { clip, fmt } from "../../artifacts/json-values.js";

const MAX_LABELS = 25;
const MAX_COLUMNS = 25;
const MAX_METADATA_KEYS = 20;

function round(n: number | null): number | null {
  return n === null || !Number.isFinite(n) ? n : Number(n.toPrecision(5));
}

/** Top labels by count, the rest summed, so a 1,000-class distribution stays small. */
function topLabels(counts: Record<string, number>): Record<string, number> {
  const sorted = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  const head = Object.fromEntries(sorted.slice(0, MAX_LABELS));
  const rest = sorted.slice(MAX_LABELS);
  return rest.length ? { ...head, [`(${rest.length} more labels)`]: rest.reduce((s, [, n]) => s + n, 0) } : head;
}

function columnDigest(c: ColumnStats) {
  return {
    name: c.name, dtype: c.dtype, kind: c.kind, count: c.count, missing_fraction: round(c.missingFraction), unique: c.unique,
    mean: round(c.mean), std: round(c.std), min: round(c.min), max: round(c.max), top: c.top === null ? null : clip(c.top, 60),
    top_frequency: c.topFrequency, nullable: c.required === null ? null : !c.required,
  };
}

/** The target first, then the columns with most missing values, then the rest in artifact order. */
function interestingColumns(stats: DatasetStats): ColumnStats[] {
  const rest = stats.columns.filter((c) => c.name !== stats.target);
  const ranked = [...rest].sort((a, b) => (b.missingFraction ?? 0) - (a.missingFraction ?? 0));
  const target = stats.columns.find((c) => c.name === stats.target);
  return [...(target ? [target] : []), ...ranked].slice(0, MAX_COLUMNS);
}

function metadataDigest(metadata: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(metadata)
      .slice(0, MAX_METADATA_KEYS)
      .map(([k, v]) => [k, typeof v === "string" ? clip(v, 200) : Array.isArray(v) ? v.slice(0, 30) : v]),
  );
}

/** A compact, bounded view of the statistics for the language model (top labels and columns only). */
export function digestDataset(stats: DatasetStats) {
  return {
    dataset_name: stats.datasetName,
    task: stats.task,
    modality: stats.modality,
    target: stats.target,
    split_strategy: stats.splitStrategy,
    metadata: metadataDigest(stats.metadata),
    rows: stats.numRows,
    splits: stats.splitRows,
    class_distribution: Object.fromEntries(Object.entries(stats.classCounts).map(([s, c]) => [s, topLabels(c)])),
    columns: { total: stats.columns.length, shown: interestingColumns(stats).map(columnDigest) },
    duplicates: stats.duplicates && { count: stats.duplicates.count, fraction: round(stats.duplicates.fraction) },
    train_test_overlap: stats.trainTestOverlap && { count: stats.trainTestOverlap.count, fraction: round(stats.trainTestOverlap.fraction) },
    conflicting_labels: stats.conflictingLabels && { count: stats.conflictingLabels.count, fraction: round(stats.conflictingLabels.fraction) },
    label_issues: stats.labelIssues && { count: stats.labelIssues.count, fraction: round(stats.labelIssues.fraction) },
    channel_stats: Object.fromEntries(Object.entries(stats.channels).map(([s, ch]) => [s, { mean: ch.mean.map(round), std: ch.std.map(round) }])),
    mlflow_dataset: stats.mlflow,
  };
}

/** What was analyzed, one line per shape read, e.g. "dataset_artifacts.statistics.columns (13 columns)". */
export function describeDataset(stats: DatasetStats): string[] {
  const base = `${stats.field}.statistics`;
  const lines: string[] = [];
  const splits = Object.entries(stats.splitRows).map(([s, n]) => `${s} ${fmt(n)}`).join(" / ");
  if (stats.mlflow) {
    const m = stats.mlflow;
    lines.push(`${base} (MLflow logged dataset${m.name ? ` "${m.name}"` : ""}${m.digest ? `, digest ${m.digest}` : ""}${m.sourceType ? `, ${m.sourceType} source` : ""}, ${stats.columns.length} columns${m.numRows !== null ? `, ${fmt(m.numRows)} rows` : ""})`);
  }
  if (stats.shapes.includes("legacy_image_statistics")) {
    const channels = Object.values(stats.channels)[0]?.mean.length ?? 0;
    lines.push(`${base} (legacy image statistics: ${splits || "no sample counts"}${channels ? `, ${channels} channels` : ""})`);
  } else if (splits || (stats.numRows !== null && !stats.mlflow)) {
    lines.push(`${base} (rows: ${stats.numRows !== null ? fmt(stats.numRows) : "?"}${splits ? `; ${splits}` : ""})`);
  }
  if (Object.keys(stats.classCounts).length) {
    const k = new Set(Object.values(stats.classCounts).flatMap((c) => Object.keys(c))).size;
    const derived = !stats.shapes.includes("class_distribution");
    lines.push(`${stats.classPath} (${k} classes${derived ? ", counts derived from the target column's mean" : `; ${Object.keys(stats.classCounts).join(", ")}`})`);
  }
  if (stats.shapes.includes("columns")) lines.push(`${base}.columns (${stats.columns.filter((c) => c.path.startsWith(`${base}.columns`)).length} columns)`);
  if (stats.shapes.includes("describe")) lines.push(`${base}.describe (pandas describe(), ${stats.columns.filter((c) => c.path.startsWith(`${base}.describe`)).length} columns)`);
  if (stats.shapes.includes("correlations")) lines.push(`${base} (${stats.correlations.length} feature correlations)`);
  if (stats.shapes.includes("channel_stats")) lines.push(`${base}.channel_stats (${Object.keys(stats.channels).join(", ")})`);
  for (const [key, label] of [["duplicates", "duplicates"], ["trainTestOverlap", "train_test_overlap"], ["conflictingLabels", "conflicting_labels"], ["labelIssues", "label_issues"]] as const) {
    if (stats[key]) lines.push(`${base}.${label}`);
  }
  return lines;
}
