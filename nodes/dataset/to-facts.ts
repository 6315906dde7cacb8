import type { Finding } from "../../domain/result.js";
import { trainClassCounts } from "./detector.js";
import { channelShift } from "./detectors/covariate-shift.js";
import { cramersV } from "./detectors/split-label-shift.js";
import type { DatasetFacts } from "./facts.js";
import type { DatasetStats } from "./model.js";
import { toFinite } from "../../artifacts/json-values.js";

/** Columns a finding's evidence names (`values.column`). */
function columnsOf(findings: readonly Finding[], id: string): string[] {
  const f = findings.find((x) => x.id === id);
  if (!f) return [];
  return [...new Set(f.evidence.flatMap((e) => (typeof e.values?.column === "string" ? [e.values.column] : [])))];
}

function shares(counts: Record<string, number>): Record<string, number> {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  return total ? Object.fromEntries(Object.entries(counts).map(([l, n]) => [l, n / total])) : {};
}

function maxOrNull(values: number[]): number | null {
  return values.length ? Math.max(...values) : null;
}

/** Rows of the training data: the train split, else the whole (unsplit or training-context) dataset. */
function trainRows(stats: DatasetStats): number | null {
  if (stats.splitRows.train !== undefined) return stats.splitRows.train;
  const context = stats.mlflow?.context?.toLowerCase() ?? null;
  const unsplit = stats.splitRows.val === undefined && stats.splitRows.test === undefined;
  return (context === null || context.startsWith("train")) && unsplit ? stats.numRows : null;
}

/** Numbers for the cross-artifact rules, from the statistics and the findings the detectors made. */
export function datasetFacts(stats: DatasetStats, findings: readonly Finding[]): DatasetFacts {
  const train = trainClassCounts(stats);
  const counts = train ? Object.values(train.counts).filter((n) => n > 0) : [];
  const total = counts.reduce((a, b) => a + b, 0);
  const splits = Object.keys(stats.classCounts);
  const vs = splits.flatMap((a, i) => splits.slice(i + 1).map((b) => cramersV(stats.classCounts[a]!, stats.classCounts[b]!)));
  const trainCh = stats.channels.train;
  const ds = trainCh ? (["val", "test"] as const).flatMap((s) => (stats.channels[s] ? [channelShift("train", trainCh, s, stats.channels[s])?.d ?? null] : [])) : [];
  const missing = stats.columns
    .filter((c) => (c.missingFraction ?? 0) > 0)
    .sort((a, b) => (b.missingFraction ?? 0) - (a.missingFraction ?? 0))
    .slice(0, 50);
  return {
    n_train: trainRows(stats),
    n_val: stats.splitRows.val ?? null,
    n_test: stats.splitRows.test ?? null,
    num_classes: counts.length || toFinite(stats.metadata.num_classes),
    majority_share: total ? Math.max(...counts) / total : null,
    imbalance_ratio: counts.length > 1 ? Math.min(...counts) / Math.max(...counts) : null,
    labels_by_split: Object.fromEntries(Object.entries(stats.classCounts).map(([s, c]) => [s, Object.keys(c).filter((l) => c[l]! > 0)])),
    task: stats.task,
    modality: stats.modality,
    overlap_fraction: stats.trainTestOverlap?.fraction ?? null,
    has_nonfinite_features: findings.some((f) => f.id === "dataset.nonfinite_features"),
    has_unnormalized_inputs: findings.some((f) => f.id === "dataset.unnormalized_inputs"),
    columns: stats.columns.map((c) => c.name),
    split_strategy: stats.splitStrategy,
    class_shares_by_split: Object.fromEntries(Object.entries(stats.classCounts).map(([s, c]) => [s, shares(c)])),
    target: stats.target,
    num_rows: stats.numRows,
    duplicate_fraction: stats.duplicates?.fraction ?? null,
    missing_fraction_by_column: Object.fromEntries(missing.map((c) => [c.name, c.missingFraction ?? 0])),
    id_like_columns: columnsOf(findings, "dataset.id_like_column"),
    constant_columns: columnsOf(findings, "dataset.constant_feature"),
    post_outcome_columns: columnsOf(findings, "dataset.post_outcome_column"),
    split_label_shift: maxOrNull(vs),
    channel_shift: maxOrNull(ds.filter((d): d is number => d !== null)),
  };
}
