import type { Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type Curve, curve, pointLabel, valueAt } from "../curves.js";
import type { TrainingRun } from "../model.js";
import { bestCheckpointKept } from "../run-config.js";
import { argExtreme, fitLine, levelNoise, mean, movingAverage, smoothingWindow } from "../stats.js";
import { fmt, metricArtifact, pct, round, type TrainingDetector } from "./detector.js";

/** The rise must exceed 3 standard errors of a difference of two w-point means. */
const Z = 3;
/** Evaluations after the best one (UMLAUT). */
const MIN_AFTER = 5;
/** A final checkpoint more than 5 % worse than the best makes it high (when the best is not what was kept). */
const MATERIAL = 0.05;

export interface Overfitting {
  val: Curve;
  bestIndex: number;
  best: number;
  end: number;
  rise: number;
  threshold: number;
  /** Train loss at the best val step and at the end, when logged. */
  /** Noise of the val level (≥ σ̂; see levelNoise). */
  noise: number;
  trainName: string | null;
  trainAtBest: number | null;
  trainAtEnd: number | null;
}

/**
 * TH-13 post hoc: the val loss ends above its smoothed minimum by more than 3 standard errors of a difference of
 * window means plus the minimum's selection bias, ≥ 5 evaluations after the best, with a significant upward trend
 * since the best and not falling again at the end (double descent), while the train loss kept falling.
 */
export function findOverfitting(run: TrainingRun): Overfitting | null {
  const val = curve(run, "val", "loss");
  if (!val || val.values.length < 8) return null;
  const n = val.values.length;
  const w = smoothingWindow(n);
  const s = movingAverage(val.values, w);
  const half = Math.floor(w / 2);
  const bestIndex = argExtreme(s, "min", half, n - half);
  if (n - 1 - bestIndex < MIN_AFTER) return null;
  const best = s[bestIndex]!;
  const end = mean(val.values, n - w, n);
  const rise = end - best;
  // The minimum of n/w window means sits about √(2 ln(n/w)) standard errors below the true level: add that bias.
  const noise = levelNoise(val.values, val.noise);
  const se = noise / Math.sqrt(w);
  const threshold = Math.max(se * (Z * Math.SQRT2 + Math.sqrt(2 * Math.log(Math.max(1, n / w)))), 1e-3 * Math.abs(best));
  if (rise <= threshold) return null;
  const tail = Math.max(w, 5);
  if (fitLine(val.steps, val.values, bestIndex, n).t < 2 || fitLine(val.steps, val.values, n - tail, n).t < -2) return null;
  const train = curve(run, "train", "loss");
  let trainAtBest: number | null = null;
  let trainAtEnd: number | null = null;
  if (train && train.values.length >= 3) {
    const tw = smoothingWindow(train.values.length);
    const smooth = { steps: train.steps, values: movingAverage(train.values, tw) };
    trainAtBest = valueAt(smooth, val.steps[bestIndex]!);
    trainAtEnd = valueAt(smooth, val.steps[n - 1]!);
    if (!(trainAtEnd < trainAtBest - train.noise / Math.sqrt(tw))) return null;
  }
  return { val, bestIndex, best, end, rise, threshold, noise, trainName: train?.name ?? null, trainAtBest, trainAtEnd };
}

/** TH-13: validation loss rises after its minimum while the training loss keeps falling. */
function detectOverfitting(run: TrainingRun): Finding[] {
  const o = findOverfitting(run);
  if (!o) return [];
  const { val } = o;
  const n = val.values.length;
  const bestStep = val.steps[o.bestIndex]!;
  const lastStep = val.steps[n - 1]!;
  const worse = o.rise / Math.abs(o.best);
  const kept = bestCheckpointKept(run);
  // High needs a material worsening, a selected checkpoint that is not the best, and evidence well past the noise.
  const severe = worse > MATERIAL && kept !== true && o.rise > 2 * o.threshold;
  const trainText = o.trainAtBest !== null ? ` while ${o.trainName} kept falling (${fmt(o.trainAtBest)} → ${fmt(o.trainAtEnd!)})` : "";
  return [
    detectorFinding({
      id: "training.overfitting",
      title: "Validation loss rises after its minimum (overfitting)",
      description: `${val.name} reached its minimum (${fmt(o.best)}, smoothed) at ${pointLabel(val, o.bestIndex)} and rose to ${fmt(o.end)} by ${pointLabel(val, n - 1)} (${pct(worse)} worse)${trainText}: the model is memorizing the training set.${kept === true ? " The best checkpoint was kept, so the selected model is not affected." : kept === false ? " The run keeps the last checkpoint, not the best one." : ""}`,
      evidence: [
        {
          rule_id: "TH-13",
          artifact: metricArtifact(val.name),
          text: `Smoothed ${val.name} minimum ${fmt(o.best)} at ${pointLabel(val, o.bestIndex)}; mean of the last evaluations ${fmt(o.end)}; rise ${fmt(o.rise)} against a noise threshold of ${fmt(o.threshold)}; ${n - 1 - o.bestIndex} evaluations after the best.`,
          window: [bestStep, lastStep],
          observed: round(o.rise),
          threshold: round(o.threshold),
          noise_estimate: round(o.noise),
          n_points: n,
          values: { best_step: bestStep, best_epoch: val.epochs && Number.isFinite(val.epochs[o.bestIndex]!) ? val.epochs[o.bestIndex]! : null, best_val_loss: round(o.best), final_val_loss: round(o.end), relative_worsening: round(worse), train_loss_at_best: o.trainAtBest === null ? null : round(o.trainAtBest), train_loss_at_end: o.trainAtEnd === null ? null : round(o.trainAtEnd), best_checkpoint_kept: kept },
        },
      ],
      severity: severe ? "high" : "medium",
      confidence: scoreConfidence({ strength: o.rise, threshold: o.threshold, points: n, benignPossible: o.trainAtBest === null }),
      recommendation: {
        action: "Keep the best checkpoint (early stopping on the validation loss, ModelCheckpoint/restore_best_weights) and add regularization: weight decay, dropout, augmentation or label smoothing; more data if you can.",
        rationale: "Weights after the validation minimum generalize worse; early stopping recovers the best point and regularization delays memorization (Prechelt; Srivastava et al.).",
        category: "training",
        effort: "low",
      },
    }),
  ];
}

export const overfitting: TrainingDetector = {
  info: {
    id: "training.overfitting",
    rule: "TH-13",
    title: "Overfitting",
    threshold: "mean of the last w val losses (w = max(3, 5 %)) > moving-average minimum + (3√2 + √(2 ln(n/w)))·σ/√w (σ = max(σ̂, spread around a wide moving average)), ≥ 5 evaluations after it, rising since (t ≥ 2), not falling again (last-window t > −2), while smoothed train loss falls; high when > 5 % worse, the rise is > 2× its threshold and the best checkpoint is not kept",
    severities: ["high", "medium"],
    basis: "UMLAUT overfitting condition; Prechelt's early-stopping criteria; double-descent caveat [K01][K10][K09][K13][K35]",
  },
  detect: detectOverfitting,
};
