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
});
export type DatasetFacts = z.infer<typeof DatasetFactsSchema>;
