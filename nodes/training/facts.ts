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
  // Added after the first contract; optional so older builders of this type still compile. The analyzer always sets them.
  /** Metrics format the history came in (lightning_csv, hf_trainer_state, mlflow_history, …). */
  format: z.string().optional(),
  /** Number of classes the params state (num_classes, num_labels, …). */
  num_classes: num.optional(),
  /** Whether the run keeps its best checkpoint (restore_best_weights, save_top_k ≥ 1, best_model_checkpoint…). */
  best_checkpoint_kept: z.boolean().nullable().optional(),
  /** Early stopping configured or reported in the logs. */
  early_stopping: z.boolean().optional(),
  /** Evaluation-set size when the artifact reveals it. */
  val_samples: num.optional(),
  /** Recognized log events by kind (cuda_oom, gradient_overflow, dataloader_error, …). */
  log_events: z.record(z.string(), z.number().int()).optional(),
});
export type TrainingFacts = z.infer<typeof TrainingFactsSchema>;
