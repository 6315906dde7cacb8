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
  /** Metric the ModelCheckpoint callback monitored (e.g. "val_loss"). */
  monitor: z.string().nullable().optional(),
  /** Path of the best checkpoint ModelCheckpoint recorded. */
  best_model_path: z.string().nullable().optional(),
  /** Dangerous globals the checkpoint's pickles import (never load the file when non-empty). */
  dangerous_globals: z.array(z.string()).optional(),
  /** The file was above SERVICE_MAX_CHECKPOINT_BYTES and only its structure was read. */
  header_only: z.boolean().optional(),
});
export type CheckpointFacts = z.infer<typeof CheckpointFactsSchema>;
