import { z } from "zod";

const num = z.number().nullable();

/** Numbers the training analyzer hands to cross-artifact rules (integrate). Null when not known. */
export const TrainingFactsSchema = z.object({
  /** Normalized metric names seen, e.g. ["train/loss", "val/loss", "val/accuracy", "lr"]. */
  metrics: z.array(z.string()),
  n_points: z.number().int(),
  /** Quantities logged on the validation split ("loss", "accuracy", "f1", "auc", …). */
  val_quantities: z.array(z.string()),
  /** Step/epoch of the last logged point and of the best validation loss (or metric). */
  last_step: num,
  last_epoch: num,
  best_val_step: num,
  best_val_epoch: num,
  best_val_loss: num,
  final_val_loss: num,
  final_train_loss: num,
  best_val_accuracy: num,
  final_val_accuracy: num,
  final_train_accuracy: num,
  /** Standard error of the validation metric estimated from its own noise. */
  val_noise: num,
  /** Steps where train-loss spikes were found, and the step where the learning rate peaked. */
  spike_steps: z.array(z.number()),
  lr_peak_step: num,
  /** Whether every logged loss was finite. */
  losses_finite: z.boolean(),
  /** Parameters the run logged (strings as MLflow stores them). */
  params: z.record(z.string(), z.string()),
});
export type TrainingFacts = z.infer<typeof TrainingFactsSchema>;
