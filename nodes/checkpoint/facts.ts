import { z } from "zod";

const num = z.number().nullable();

/** What the checkpoint analyzer hands to cross-artifact rules (integrate). */
export const CheckpointFactsSchema = z.object({
  format: z.string().nullable(),
  epoch: num,
  global_step: num,
  num_parameters: num,
  /** Output size of the classification head, when it can be told from shapes or config. */
  head_classes: num,
  has_optimizer_state: z.boolean().nullable(),
  nonfinite_tensors: z.number().int(),
  /** True when the file was scanned, false when only metadata was analyzed. */
  scanned: z.boolean(),
  /** Best score recorded by a ModelCheckpoint/EarlyStopping callback, when present. */
  best_model_score: num,
});
export type CheckpointFacts = z.infer<typeof CheckpointFactsSchema>;
