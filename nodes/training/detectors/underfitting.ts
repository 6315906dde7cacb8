import type { Evidence, Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { chanceAccuracy } from "../chance.js";
import { curve, runExtent } from "../curves.js";
import type { TrainingRun } from "../model.js";
import { numClasses } from "../run-config.js";
import { fmt, metricArtifact, round, type TrainingDetector } from "./detector.js";
import { finalValue } from "../final-value.js";

/** Train accuracy within 5 pp of the majority-class rate is no better than guessing. */
const MARGIN = 0.05;
/** A loss reduction below 20 % of ln K is barely any learning for a K-class model. */
const MIN_REDUCTION = 0.2;

/**
 * TH-16: the model cannot fit its own training data: train accuracy < chance + 5 pp, or the train loss fell by
 * less than 20 % of ln K, while the train/val gap is small (< max(2 SE, 0.05)).
 */
function detectUnderfitting(run: TrainingRun): Finding[] {
  const evidence: Evidence[] = [];
  const trainAcc = curve(run, "train", "accuracy");
  const valAcc = curve(run, "val", "accuracy");
  const chance = chanceAccuracy(run, numClasses(run));
  if (trainAcc && chance !== null) {
    const t = finalValue(trainAcc);
    const smallGap = !valAcc || Math.abs(t.value - finalValue(valAcc).value) < Math.max(2 * Math.hypot(t.se, finalValue(valAcc).se), 0.05);
    if (t.value < chance + MARGIN && smallGap) {
      evidence.push({ rule_id: "TH-16", artifact: metricArtifact(trainAcc.name), text: `Final ${trainAcc.name} ${fmt(t.value)} against a chance level of ${fmt(chance)} (+${MARGIN} margin).`, observed: round(t.value), threshold: round(chance + MARGIN), noise_estimate: round(t.se), n_points: trainAcc.values.length });
    }
  }
  const k = numClasses(run);
  const loss = curve(run, "train", "loss");
  if (k && loss && loss.values.length >= 3) {
    const { first, last } = runExtent(run);
    const startsEarly = loss.steps[0]! - first <= 0.05 * Math.max(1, last - first);
    const reduction = loss.values[0]! - finalValue(loss).value;
    const needed = MIN_REDUCTION * Math.log(k);
    if (startsEarly && reduction < needed && finalValue(loss).value > 0.5 * Math.log(k)) {
      evidence.push({ rule_id: "TH-16", artifact: metricArtifact(loss.name), text: `${loss.name} fell by ${fmt(reduction)} (from ${fmt(loss.values[0]!)} to ${fmt(finalValue(loss).value)}), less than ${MIN_REDUCTION}·ln ${k} = ${fmt(needed)}.`, observed: round(reduction), threshold: round(needed), noise_estimate: round(loss.noise), n_points: loss.values.length });
    }
  }
  if (evidence.length === 0) return [];
  return [
    detectorFinding({
      id: "training.underfitting",
      title: "The model underfits its training data",
      description: `The model barely fits its own training data (${evidence.map((e) => e.text.replace(/\.$/, "")).join("; ")}), and validation is no worse: it lacks capacity, training time or a suitable learning rate, or the features do not carry the signal.`,
      evidence,
      severity: "high",
      confidence: scoreConfidence({ strength: evidence.length, threshold: 1, corroborations: evidence.length - 1 }),
      recommendation: {
        action: "Increase capacity or train longer, tune the learning rate, reduce regularization, and check that features and labels are correct and aligned.",
        rationale: "When the training fit itself is poor, the limit is the model or the optimization, not generalization; regularizing further would make it worse.",
        category: "model",
        effort: "medium",
      },
    }),
  ];
}

export const underfitting: TrainingDetector = {
  info: {
    id: "training.underfitting",
    rule: "TH-16",
    title: "Underfitting",
    threshold: "final train accuracy < majority rate (or 1/K) + 5 pp with a small train/val gap, or train loss reduced by < 20 % of ln K from an early first log",
    severities: ["high"],
    basis: "AutoTrainer not-converge / satisfied-accuracy rules; Karpathy's recipe [K01][K02]",
  },
  detect: detectUnderfitting,
};
