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
});
export type DatasetFacts = z.infer<typeof DatasetFactsSchema>;
