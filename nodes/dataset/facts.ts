import { z } from "zod";

const num = z.number().nullable();

/** Numbers the dataset analyzer hands to cross-artifact rules (integrate). Null when not known. */
export const DatasetFactsSchema = z.object({
  n_train: num,
  n_val: num,
  n_test: num,
  num_classes: num,
  /** Share of the largest class in train, and minority/majority ratio. */
  majority_share: num,
  imbalance_ratio: num,
  /** Class labels seen per split. */
  labels_by_split: z.record(z.string(), z.array(z.string())),
  task: z.string().nullable(),
  modality: z.string().nullable(),
  /** Cross-split overlap as a fraction of the evaluation split, when given. */
  overlap_fraction: num,
  has_nonfinite_features: z.boolean(),
  has_unnormalized_inputs: z.boolean(),
  columns: z.array(z.string()),
  /** metadata.split_strategy as given (e.g. "time-based: train = 2024-01..09, validation = 2024-10..12"). */
  split_strategy: z.string().nullable(),
  /** Class share (0–1) per normalized split name (train, val, test), when class counts are known. */
  class_shares_by_split: z.record(z.string(), z.record(z.string(), z.number())),
  // Added by the dataset analyzer, which always fills them; optional so other producers of facts stay valid.
  /** metadata.target (the label column), when named. */
  target: z.string().nullable().optional(),
  /** Total rows when stated (num_rows, the MLflow profile, or the sum of the splits). */
  num_rows: num.optional(),
  /** Duplicate rows as a share of train. */
  duplicate_fraction: num.optional(),
  /** Missing share per column, for columns with any missing values (largest first, at most 50). */
  missing_fraction_by_column: z.record(z.string(), z.number()).optional(),
  /** Columns flagged as identifiers, constants, or possibly recorded after the outcome. */
  id_like_columns: z.array(z.string()).optional(),
  constant_columns: z.array(z.string()).optional(),
  post_outcome_columns: z.array(z.string()).optional(),
  /** Largest Cramér's V between the class counts of two splits. */
  split_label_shift: num.optional(),
  /** Largest per-channel Cohen's d between train and an evaluation split (image statistics). */
  channel_shift: num.optional(),
});
export type DatasetFacts = z.infer<typeof DatasetFactsSchema>;
