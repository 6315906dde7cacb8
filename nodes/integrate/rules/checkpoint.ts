import type { CrossRule } from "../evidence.js";
import { crossFinding, pct } from "./common.js";

/** Where the saved checkpoint sits on the training timeline, in the unit both artifacts share. */
function checkpointPosition(ev: Parameters<CrossRule>[0]) {
  const t = ev.facts.training;
  const c = ev.facts.checkpoint;
  if (!t || !c) return null;
  if (c.epoch !== null && t.last_epoch !== null && t.best_val_epoch !== null) {
    return { unit: "epoch", saved: c.epoch, last: t.last_epoch, best: t.best_val_epoch };
  }
  if (c.global_step !== null && t.last_step !== null && t.best_val_step !== null) {
    return { unit: "step", saved: c.global_step, last: t.last_step, best: t.best_val_step };
  }
  return null;
}

/** XA-10: the kept checkpoint is the last one while validation was clearly better earlier. */
export const detectSavedWrongCheckpoint: CrossRule = (ev) => {
  const pos = checkpointPosition(ev);
  const t = ev.facts.training;
  if (!pos || !t || t.best_val_loss === null || t.final_val_loss === null) return [];
  // "At the end": within one epoch, or within 2 % of the run's steps.
  const nearEnd = pos.saved >= pos.last - Math.max(1, 0.02 * pos.last);
  const bestEarlier = pos.best < pos.saved;
  const worse = t.final_val_loss - t.best_val_loss;
  const noise = t.val_noise ?? 0;
  const relative = t.best_val_loss !== 0 ? worse / Math.abs(t.best_val_loss) : 0;
  if (!nearEnd || !bestEarlier || worse <= Math.max(2 * noise, 0.02 * Math.abs(t.best_val_loss))) return [];
  return [
    crossFinding({
      name: "saved_wrong_checkpoint",
      rule: "XA-10",
      title: "The saved checkpoint is the last one, not the best",
      description: `The checkpoint was saved at ${pos.unit} ${pos.saved}, but validation loss was best at ${pos.unit} ${pos.best} (${t.best_val_loss.toPrecision(4)}) and ended at ${t.final_val_loss.toPrecision(4)}, ${pct(relative, 0)} worse. Do not ship this checkpoint.`,
      severity: relative > 0.05 ? "high" : "medium",
      basedOn: [ev.get("training.overfitting"), ev.get("training.early_stop_opportunity")],
      baseConfidence: 0.8,
      evidence: [{
        artifact: "model_checkpoint_artifacts + training_artifacts.metrics",
        text: `Saved at ${pos.unit} ${pos.saved} (last ${pos.last}); best validation loss at ${pos.unit} ${pos.best}.`,
        observed: worse,
        threshold: Math.max(2 * noise, 0.02 * Math.abs(t.best_val_loss)),
        noise_estimate: t.val_noise,
        values: { saved: pos.saved, best: pos.best, best_val_loss: t.best_val_loss, final_val_loss: t.final_val_loss },
      }],
      recommendation: {
        action: "Keep the best checkpoint by validation metric (ModelCheckpoint monitor + save_top_k ≥ 1, or load_best_model_at_end) and restore it before export.",
        rationale: "Weights from after the validation optimum generalize worse than the best ones the run already produced.",
        category: "training",
        effort: "low",
      },
    }),
  ];
};

/**
 * XA-09: many more parameters than training examples, with overfitting observed (validation worsening while
 * training improves — a loss gap alone is common and harmless in fine-tuning pretrained models).
 */
export const detectCapacityVsData: CrossRule = (ev) => {
  const params = ev.facts.checkpoint?.num_parameters ?? null;
  const n = ev.facts.dataset?.n_train ?? null;
  const overfit = ev.get("training.overfitting");
  if (!params || !n || !overfit || params / n < 100) return [];
  return [
    crossFinding({
      name: "capacity_vs_data",
      rule: "XA-09",
      title: "Model capacity far exceeds the training data",
      description: `${(params / 1e6).toFixed(1)} M parameters for ${n.toLocaleString("en")} training examples (${Math.round(params / n).toLocaleString("en")} parameters per example), and the run overfits.`,
      severity: "medium",
      basedOn: [overfit],
      evidence: [{ artifact: "model_checkpoint_artifacts.metadata + dataset_artifacts.statistics", text: `${params} parameters / ${n} training rows.`, observed: params / n, threshold: 100 }],
      recommendation: {
        action: "Regularize (weight decay, augmentation, dropout), freeze early layers when fine-tuning, or use a smaller model; collect more data where possible.",
        rationale: "A model with far more parameters than examples can memorize the training set.",
        category: "model",
        effort: "medium",
      },
    }),
  ];
};

/** XA-11: non-finite weights although every logged loss was finite: saving, precision or corruption. */
export const detectCheckpointCorruptAfterFiniteTraining: CrossRule = (ev) => {
  const weights = ev.get("checkpoint.nonfinite_weights");
  if (!weights || ev.facts.training?.losses_finite !== true) return [];
  return [
    crossFinding({
      name: "checkpoint_corrupt_after_finite_training",
      rule: "XA-11",
      title: "Checkpoint corrupted after a finite training run",
      description: "The checkpoint holds NaN or infinite weights although every logged loss stayed finite: the values were likely damaged at save time (precision overflow on cast) or in storage.",
      severity: "high",
      basedOn: [weights],
      recommendation: {
        action: "Re-save the weights in fp32 or bf16 from the training process, and verify the file's hash after upload.",
        rationale: "Finite losses mean the in-memory weights were finite; the damage happened after training.",
        category: "infrastructure",
        effort: "low",
      },
    }),
  ];
};

/** The classification head's output size differs from the dataset's number of classes. */
export const detectHeadClassMismatch: CrossRule = (ev) => {
  const head = ev.facts.checkpoint?.head_classes ?? null;
  const classes = ev.facts.dataset?.num_classes ?? null;
  if (head === null || classes === null || head === classes || classes < 2) return [];
  return [
    crossFinding({
      name: "head_class_mismatch",
      rule: "CK-11×DS",
      title: "Classifier head does not match the dataset's classes",
      description: `The checkpoint's classification head has ${head} outputs but the dataset has ${classes} classes: the head was not replaced for this task, or the checkpoint belongs to another dataset.`,
      severity: "high",
      basedOn: [],
      baseConfidence: 0.85,
      evidence: [{ artifact: "model_checkpoint_artifacts + dataset_artifacts.statistics", text: `head outputs ${head}, dataset classes ${classes}.`, observed: head, threshold: classes }],
      recommendation: {
        action: "Replace the classification head with one sized to the dataset's classes (num_labels) and check the label mapping.",
        rationale: "Extra or missing outputs mean some classes can never be predicted or logits map to the wrong labels.",
        category: "model",
        effort: "low",
      },
    }),
  ];
};

export const CHECKPOINT_RULES: readonly CrossRule[] = [detectSavedWrongCheckpoint, detectCapacityVsData, detectCheckpointCorruptAfterFiniteTraining, detectHeadClassMismatch];
