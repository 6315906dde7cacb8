import { z } from "zod";

/** `{count, fraction}` of rows (duplicates, train/test overlap), the shape nodes/dataset/parse/counts.ts reads. */
export const CountFractionSchema = z.object({ count: z.number().int().nonnegative(), fraction: z.number().min(0).max(1) });
export type CountFraction = z.infer<typeof CountFractionSchema>;

/** One column's statistics in ARTIFACTS.md's `columns` shape; null where a statistic does not apply. */
export const ColumnStatisticsSchema = z.object({
  dtype: z.string(),
  count: z.number().int().nonnegative(),
  missing: z.number().int().nonnegative(),
  missing_fraction: z.number().min(0).max(1),
  /** Exact up to UNIQUE_EXACT_BOUND distinct values; above it a HyperLogLog estimate, flagged by unique_estimated. */
  unique: z.number().int().nonnegative(),
  unique_estimated: z.literal(true).optional(),
  mean: z.number().nullable(),
  std: z.number().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  p25: z.number().nullable(),
  p50: z.number().nullable(),
  p75: z.number().nullable(),
  /** Quartiles estimated from a sample (near-unique columns above QUANTILE_EXACT_BOUND values, no test file). */
  quartiles_estimated: z.literal(true).optional(),
  top: z.string().nullable(),
  top_frequency: z.number().int().nonnegative().nullable(),
  /** ±Infinity values of a floating-point column (NaN counts as missing, as pandas reads it). */
  inf_count: z.number().int().nonnegative().optional(),
});
export type ColumnStatistics = z.infer<typeof ColumnStatisticsSchema>;

/** Drift of one column from train to test (drift.ts says how each number is computed). */
export const ColumnDriftSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("numeric"), psi: z.number().nonnegative(), ks: z.number().min(0).max(1) }),
  z.object({ kind: z.literal("categorical"), psi: z.number().nonnegative(), total_variation: z.number().min(0).max(1) }),
]);
export type ColumnDrift = z.infer<typeof ColumnDriftSchema>;

/** How well one feature alone predicts the target (label-signal.ts says how each number is computed). */
export const LabelSignalSchema = z.object({
  /** "auc": a numeric feature and a binary target, score |2·AUC − 1|; "purity": value (or quantile-bin) groups. */
  method: z.enum(["auc", "purity"]),
  /** Score in train, 0 (no better than the majority label) to 1 (predicts the label exactly); leave-one-out for purity. */
  train: z.number().min(0).max(1),
  /** Score in test with train's mapping (purity) or train's direction (AUC); absent without a test file. */
  test: z.number().min(0).max(1).optional(),
  /** Standard deviation of the train score when the feature says nothing: a score within a few of it is noise. */
  null_sd: z.number().nonnegative(),
  /** The same for the test score. */
  test_null_sd: z.number().nonnegative().optional(),
  /** Values never decrease (or never increase) in row order: an id or timestamp assigned in sequence. Only for a numeric or time feature whose train score is above 3 null_sd. */
  monotonic: z.boolean().optional(),
});
export type LabelSignal = z.infer<typeof LabelSignalSchema>;

/** Test rows dated before the latest train row, for one time column (time-split.ts). */
export const TimeSplitSchema = z.object({
  column: z.string(),
  /** Named with --time-column (true) or found as the files' only date/time column (false). */
  stated: z.boolean(),
  train_min: z.string(),
  train_max: z.string(),
  test_min: z.string(),
  test_max: z.string(),
  /** Test rows strictly earlier than the latest train row. */
  test_before_train_end: CountFractionSchema,
});
export type TimeSplit = z.infer<typeof TimeSplitSchema>;

/** Rows of train identical in every feature to another row with a different label (Deepchecks' Conflicting Labels). */
export const ConflictingLabelsSchema = CountFractionSchema.extend({
  /** Up to five groups: the features' values as text and the labels seen. */
  examples: z.array(z.object({ values: z.record(z.string(), z.string().nullable()), labels: z.array(z.string()) })),
});
export type ConflictingLabels = z.infer<typeof ConflictingLabelsSchema>;

/** `dataset_artifacts.statistics` as the client computes it from data files. */
export const DatasetStatisticsSchema = z.object({
  /** Rows of the data file plus the test file when there is one. */
  num_rows: z.number().int().nonnegative(),
  splits: z.record(z.string(), z.object({ num_rows: z.number().int().nonnegative() })),
  /** Statistics of the data (train) file's columns. */
  columns: z.record(z.string(), ColumnStatisticsSchema),
  /** `{split: {label: count}}` with a test file, `{label: count}` without. */
  class_distribution: z.union([z.record(z.string(), z.number()), z.record(z.string(), z.record(z.string(), z.number()))]).optional(),
  duplicates: CountFractionSchema,
  train_test_overlap: CountFractionSchema.optional(),
  drift: z.record(z.string(), ColumnDriftSchema).optional(),
  /** Per feature, how well it alone predicts the target (with --target, for a classification target). */
  label_signal: z.record(z.string(), LabelSignalSchema).optional(),
  conflicting_labels: ConflictingLabelsSchema.optional(),
  time_split: TimeSplitSchema.optional(),
});
export type DatasetStatistics = z.infer<typeof DatasetStatisticsSchema>;

/** The `dataset_artifacts` object of an analysis request. */
export const DatasetArtifactsSchema = z.object({
  metadata: z.object({
    source: z.string(),
    test_source: z.string().optional(),
    target: z.string().optional(),
    time_column: z.string().optional(),
    task: z.string().optional(),
    modality: z.literal("tabular"),
    computed_by: z.string(),
  }),
  statistics: DatasetStatisticsSchema,
});
export type DatasetArtifacts = z.infer<typeof DatasetArtifactsSchema>;
