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
});
export type DatasetStatistics = z.infer<typeof DatasetStatisticsSchema>;

/** The `dataset_artifacts` object of an analysis request. */
export const DatasetArtifactsSchema = z.object({
  metadata: z.object({
    source: z.string(),
    test_source: z.string().optional(),
    target: z.string().optional(),
    task: z.string().optional(),
    modality: z.literal("tabular"),
    computed_by: z.string(),
  }),
  statistics: DatasetStatisticsSchema,
});
export type DatasetArtifacts = z.infer<typeof DatasetArtifactsSchema>;
