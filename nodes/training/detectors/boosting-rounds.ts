import type { Evidence, Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { boostingEvidence, earlyStoppingRounds } from "../boosting-run.js";
import { type Curve, curve, curveOf, pointLabel, valueAt } from "../curves.js";
import type { TrainingRun } from "../model.js";
import { argExtreme, mean, smoothingWindow } from "../stats.js";
import { fmt, metricArtifact, PARAMS_ARTIFACT, pct, round, type TrainingDetector } from "./detector.js";

/** Fewer rounds than this say nothing about where the validation metric turned. */
const MIN_ROUNDS = 20;
/** The best round is "far before the last" with at least this many rounds, and this share of them, after it. */
const MIN_ROUNDS_AFTER = 10;
const SHARE_AFTER = 0.1;
/** Rounds after the best that early stopping would have saved, as a share of the run, for the low finding. */
const WASTED_SHARE = 0.2;
/** The validation loss ends this much above its best (relative) and by more than 3σ̂ for the overfitting finding. */
const MIN_RISE = 0.02;
const Z = 3;
/** A final model this much worse than the best round makes the finding high (every round is kept without early stopping). */
const MATERIAL = 0.05;

/** Where a boosting run's validation loss was best and how far it ended from there. */
export interface BoostingRounds {
  val: Curve;
  bestIndex: number;
  best: number;
  /** Mean of the last w rounds. */
  end: number;
  after: number;
  rise: number;
  threshold: number;
  earlyStopping: number | null;
}

/**
 * The validation loss the libraries stop on: val/loss (the boosting parser puts the set early stopping watches
 * there), else the first further evaluation set names.ts kept apart (LightGBM's record_evaluation names its only
 * validation set valid_1 beside "training").
 */
function stoppingCurve(run: TrainingRun): Curve | undefined {
  const val = curve(run, "val", "loss", "fine");
  if (val) return val;
  const key = [...run.series.keys()].filter((k) => /^val_\d+\/loss$/.test(k)).sort((a, b) => parseInt(a.slice(4), 10) - parseInt(b.slice(4), 10))[0];
  return key ? curveOf(run.series.get(key)!, "fine") : undefined;
}

/** The validation loss per round of a boosting run, read when the run has ≥ 20 rounds; else null. */
export function boostingRounds(run: TrainingRun): BoostingRounds | null {
  if (!boostingEvidence(run)) return null;
  const val = stoppingCurve(run);
  if (!val || val.values.length < MIN_ROUNDS) return null;
  const n = val.values.length;
  const bestIndex = argExtreme(val.values, "min");
  const best = val.values[bestIndex]!;
  const end = mean(val.values, n - smoothingWindow(n), n);
  const rise = end - best;
  return { val, bestIndex, best, end, after: n - 1 - bestIndex, rise, threshold: Math.max(MIN_RISE * Math.abs(best), Z * val.noise), earlyStopping: earlyStoppingRounds(run) };
}

/** Best round far before the last: ≥ max(10, 10 % of the rounds) after it, and more than early stopping's patience. */
const farBeforeLast = (r: BoostingRounds, share: number) => r.after >= Math.max(MIN_ROUNDS_AFTER, share * r.val.values.length) && (r.earlyStopping === null || r.after > r.earlyStopping);

function stoppingEvidence(r: BoostingRounds): Evidence {
  return {
    rule_id: "TH-13b",
    artifact: PARAMS_ARTIFACT,
    text: r.earlyStopping === null ? "No early_stopping_rounds (or od_wait) in the run's parameters: every round was trained and is kept in the model." : `early_stopping_rounds = ${r.earlyStopping}, yet ${r.after} rounds ran after the best one.`,
    observed: r.earlyStopping ?? "absent",
    values: { early_stopping_rounds: r.earlyStopping },
  };
}

/** The training loss at the best round and at the end, when it was logged: the gap the trees opened. */
function gapEvidence(run: TrainingRun, r: BoostingRounds): Evidence | null {
  const train = curve(run, "train", "loss", "fine");
  if (!train || train.values.length < MIN_ROUNDS) return null;
  const n = r.val.values.length;
  const atBest = valueAt(train, r.val.steps[r.bestIndex]!);
  const atEnd = train.values[train.values.length - 1]!;
  const finalVal = r.val.values[n - 1]!;
  return {
    rule_id: "TH-14",
    artifact: metricArtifact(train.name),
    text: `${train.name} went from ${fmt(atBest)} at the best round to ${fmt(atEnd)} at the last, while ${r.val.name} ended at ${fmt(finalVal)}: the trees fit the training rows ever closer without generalizing.`,
    observed: round(finalVal - atEnd),
    values: { train_loss_at_best: round(atBest), train_loss_at_end: round(atEnd), final_val_loss: round(finalVal) },
  };
}

const TREE_ADVICE =
  "Set early_stopping_rounds (e.g. 20–50) on the validation set so the model keeps its best round; make each tree simpler (lower max_depth or num_leaves/depth, raise min_child_weight or min_data_in_leaf); lower learning_rate (eta) and allow more rounds; subsample rows and columns (subsample/bagging_fraction, colsample_bytree/feature_fraction) and add L2 regularization (lambda, l2_leaf_reg).";

/** TH-13 for tree ensembles: the validation loss rises with the rounds after a best round far before the last. */
function detectBoostingOverfitting(run: TrainingRun): Finding[] {
  const r = boostingRounds(run);
  if (!r || !farBeforeLast(r, SHARE_AFTER) || r.rise <= r.threshold) return [];
  const { val } = r;
  const n = val.values.length;
  const worse = r.rise / Math.abs(r.best);
  const severe = worse > MATERIAL && r.earlyStopping === null;
  const gap = gapEvidence(run, r);
  return [
    detectorFinding({
      id: "training.boosting_overfitting",
      title: "Validation loss rises with the boosting rounds (overfitting)",
      description: `${val.name} was best at ${pointLabel(val, r.bestIndex)} (${fmt(r.best)}) and rose to ${fmt(r.end)} over the last rounds (${pct(worse)} worse), ${r.after} rounds later${r.earlyStopping === null ? ", with no early stopping: the model keeps every round" : ""}. The trees added after the best round fit noise in the training rows.`,
      evidence: [
        {
          rule_id: "TH-13b",
          artifact: metricArtifact(val.name),
          text: `Best ${val.name} ${fmt(r.best)} at ${pointLabel(val, r.bestIndex)} of ${n} rounds; mean of the last rounds ${fmt(r.end)}; rise ${fmt(r.rise)} against max(2 % of the best, 3σ̂) = ${fmt(r.threshold)}.`,
          window: [val.steps[r.bestIndex]!, val.steps[n - 1]!],
          observed: round(r.rise),
          threshold: round(r.threshold),
          noise_estimate: round(val.noise),
          n_points: n,
          values: { best_round_index: r.bestIndex, rounds: n, rounds_after_best: r.after, best_val_loss: round(r.best), final_val_loss: round(r.end), relative_worsening: round(worse) },
        },
        stoppingEvidence(r),
        ...(gap ? [gap] : []),
      ],
      severity: severe ? "high" : "medium",
      confidence: scoreConfidence({ strength: r.rise, threshold: r.threshold, points: n }),
      recommendation: { action: TREE_ADVICE, rationale: "Each boosting round fits the residuals of the last; past the best round the new trees fit noise, and early stopping, simpler trees and a smaller learning rate are the standard remedies in XGBoost, LightGBM and CatBoost.", category: "training", effort: "low" },
    }),
  ];
}

/** No early stopping and a best round far before the last, with a flat tail (a rising one is boosting_overfitting's). */
function detectNoEarlyStopping(run: TrainingRun): Finding[] {
  const r = boostingRounds(run);
  if (!r || r.earlyStopping !== null || !farBeforeLast(r, WASTED_SHARE) || r.rise > r.threshold) return [];
  const n = r.val.values.length;
  return [
    detectorFinding({
      id: "training.boosting_no_early_stopping",
      title: "Boosting ran long past its best round without early stopping",
      description: `${r.val.name} was best at ${pointLabel(r.val, r.bestIndex)}; the ${r.after} rounds after it (${pct(r.after / n)} of the run) did not improve it, and no early_stopping_rounds was set.`,
      evidence: [
        {
          rule_id: "TH-15b",
          artifact: metricArtifact(r.val.name),
          text: `${r.after} of ${n} rounds after the best one (threshold max(${MIN_ROUNDS_AFTER}, ${pct(WASTED_SHARE)} of the rounds)).`,
          window: [r.val.steps[r.bestIndex]!, r.val.steps[n - 1]!],
          observed: r.after,
          threshold: Math.max(MIN_ROUNDS_AFTER, Math.ceil(WASTED_SHARE * n)),
          n_points: n,
          values: { best_round_index: r.bestIndex, rounds: n },
        },
        stoppingEvidence(r),
      ],
      severity: "low",
      confidence: scoreConfidence({ strength: r.after / n, threshold: WASTED_SHARE, points: n }),
      recommendation: { action: "Pass early_stopping_rounds with a validation set (XGBoost/LightGBM early_stopping_rounds or the early_stopping callback, CatBoost od_wait) so training stops and the best round is kept.", rationale: "Rounds past the best one cost time and add trees that do not help on held-out data.", category: "training", effort: "low" },
    }),
  ];
}

const BASIS = "XGBoost/LightGBM/CatBoost early-stopping documentation; Prechelt's early-stopping criteria [K10][K01]";

export const boostingOverfitting: TrainingDetector = {
  info: {
    id: "training.boosting_overfitting",
    rule: "TH-13b",
    title: "Boosting overfitting (validation loss rises with rounds)",
    threshold: `boosting run (boosting-run.ts); ≥ ${MIN_ROUNDS} rounds; best round ≥ max(${MIN_ROUNDS_AFTER}, ${pct(SHARE_AFTER)} of the rounds) before the last and more than early_stopping_rounds; mean of the last w rounds > best + max(${pct(MIN_RISE)} of the best, ${Z}σ̂); high when > ${pct(MATERIAL)} worse and no early stopping`,
    severities: ["high", "medium"],
    basis: BASIS,
  },
  detect: detectBoostingOverfitting,
};

export const boostingNoEarlyStopping: TrainingDetector = {
  info: {
    id: "training.boosting_no_early_stopping",
    rule: "TH-15b",
    title: "Boosting without early stopping",
    threshold: `boosting run; no early_stopping_rounds/od_wait; best round ≥ max(${MIN_ROUNDS_AFTER}, ${pct(WASTED_SHARE)} of the rounds) before the last; the validation loss did not rise past the overfitting threshold`,
    severities: ["low"],
    basis: BASIS,
  },
  detect: detectNoEarlyStopping,
};
