import type { FactsByKind } from "../../../graph/facts.js";
import type { Finding } from "../../../domain/result.js";
import type { CrossEvidence, CrossRule } from "../evidence.js";
import { crossFinding } from "./common.js";

const DRIFT_FINDINGS = ["checks.dataset_drift", "checks.label_drift", "checks.feature_drift", "dataset.covariate_shift", "dataset.feature_drift"];

function driftSignal(ev: CrossEvidence): Finding | undefined {
  for (const id of DRIFT_FINDINGS) {
    const f = ev.get(id);
    if (f) return f;
  }
  return undefined;
}

/** Total variation distance between two class-share maps (0 = same mix, 1 = disjoint). */
export function totalVariation(a: Record<string, number>, b: Record<string, number>): number {
  const labels = new Set([...Object.keys(a), ...Object.keys(b)]);
  let sum = 0;
  for (const label of labels) sum += Math.abs((a[label] ?? 0) - (b[label] ?? 0));
  return sum / 2;
}

export interface SplitRelation {
  /** Validation drawn from the training pool (same class mix, or a random/stratified split of it). */
  valFromTrainPool: boolean | null;
  /** Validation deliberately from another period or source (time-based split). */
  valShifted: boolean | null;
  trainValTv: number | null;
  trainTestTv: number | null;
}

const TIME_SPLIT = /time|temporal|chronolog|month|date|period|later|wave|season/i;

/**
 * How validation relates to train and test, from the split strategy text and the class mixes: the difference
 * between "the gap is shift" (validation from elsewhere) and "validation cannot see the shift" (validation from
 * the training pool, test from elsewhere).
 */
export function relateSplits(facts: FactsByKind): SplitRelation {
  const ds = facts.dataset;
  const shares = ds?.class_shares_by_split ?? {};
  const tv = (x: string) => (shares.train && shares[x] ? totalVariation(shares.train, shares[x]!) : null);
  const trainValTv = tv("val");
  const trainTestTv = tv("test");
  const strategy = ds?.split_strategy ?? "";
  const valClause = strategy.split(/[;,]/).find((part) => /\bval|validation|dev\b/i.test(part)) ?? "";
  // A time-based strategy shifts validation unless its own clause says it was sampled from the pool.
  const valTimeBased = TIME_SPLIT.test(strategy) && !/stratified|random/i.test(valClause);
  const valShifted = strategy ? valTimeBased : trainValTv !== null ? trainValTv >= 0.1 : null;
  const valFromTrainPool = valShifted === true ? false : trainValTv !== null ? trainValTv < 0.05 : /stratified|random/i.test(valClause) ? true : null;
  return { valFromTrainPool, valShifted, trainValTv, trainTestTv };
}

const tvText = (r: SplitRelation) =>
  [r.trainValTv !== null ? `train↔val class-mix distance ${r.trainValTv.toFixed(3)}` : "", r.trainTestTv !== null ? `train↔test ${r.trainTestTv.toFixed(3)}` : ""]
    .filter(Boolean)
    .join(", ");

/** XA-02: a train/validation gap where validation comes from a shifted distribution: part of the gap is shift. */
export const detectGapExplainedByShift: CrossRule = (ev) => {
  const gap = ev.get("training.generalization_gap") ?? ev.get("training.overfitting");
  const drift = driftSignal(ev);
  const rel = relateSplits(ev.facts);
  if (!gap || !drift || rel.valFromTrainPool === true) return [];
  return [
    crossFinding({
      name: "gap_explained_by_shift",
      rule: "XA-02",
      title: "The train/validation gap is largely distribution shift",
      description: `${gap.title} while the data checks report ${drift.title.toLowerCase()}${rel.valShifted ? " and validation comes from a different period than training" : ""}. Much of the gap measures how the validation data differs, not classic overfitting: regularization alone will not close it.`,
      severity: "high",
      basedOn: [gap, drift],
      evidence: tvText(rel) || ev.facts.dataset?.split_strategy ? [{ artifact: "dataset_artifacts.metadata.split_strategy", text: [ev.facts.dataset?.split_strategy ? `Split: ${ev.facts.dataset.split_strategy}.` : "", tvText(rel)].filter(Boolean).join(" ") }] : [],
      recommendation: {
        action: "Validate on rolling time-based folds, retrain with (or up-weight) the most recent data, and find what changed upstream before adding regularization.",
        rationale: "When validation differs in distribution, the gap measures shift as much as overfitting; only data that matches the target period closes it.",
        category: "data",
        effort: "medium",
      },
    }),
  ];
};

/** XA-13: drift between train and test while validation is drawn from the training pool: validation cannot see it. */
export const detectDriftInvisibleToValidation: CrossRule = (ev) => {
  const drift = driftSignal(ev);
  const rel = relateSplits(ev.facts);
  if (!drift || rel.valFromTrainPool !== true) return [];
  return [
    crossFinding({
      name: "drift_invisible_to_validation",
      rule: "XA-13",
      title: "Validation does not represent the test distribution",
      description: `The checks report ${drift.title.toLowerCase()} between train and test, but validation is drawn from the training pool${rel.trainValTv !== null ? ` (class-mix distance to train ${rel.trainValTv.toFixed(3)})` : ""}. Validation scores and model selection cannot see this shift, so expect test performance below validation.`,
      severity: "high",
      basedOn: [drift],
      baseConfidence: 0.7,
      evidence: tvText(rel) ? [{ artifact: "dataset_artifacts.statistics.class_distribution", text: `${tvText(rel)}.`, observed: rel.trainTestTv, threshold: 0.1 }] : [],
      recommendation: {
        action: "Build validation from the target (test) distribution, or re-weight class priors to the test mix, and report metrics per class.",
        rationale: "Model selection on a validation set that shares train's distribution hides exactly the shift the deployed model meets.",
        category: "data",
        effort: "medium",
      },
    }),
  ];
};

/** XA-12: label drift together with labels in evaluation that train never saw. */
export const detectLabelShiftNewClasses: CrossRule = (ev) => {
  const drift = ev.get("checks.label_drift");
  const unseen = ev.get("dataset.unseen_labels");
  if (!drift || !unseen) return [];
  return [
    crossFinding({
      name: "label_shift_new_classes",
      rule: "XA-12",
      title: "Label shift with classes missing from training",
      description: `${drift.title} and ${unseen.title.toLowerCase()}: the evaluation splits contain classes the model was never trained on, so part of the shift cannot be learned away.`,
      severity: "high",
      basedOn: [drift, unseen],
      recommendation: {
        action: "Re-split stratified by label so every class is in train; if the shift is real, re-weight by the estimated class ratios (BBSE).",
        rationale: "A model cannot predict a class it never saw; stratification and prior re-weighting address the two halves of the problem.",
        category: "data",
        effort: "medium",
      },
    }),
  ];
};

export const SHIFT_RULES: readonly CrossRule[] = [detectGapExplainedByShift, detectDriftInvisibleToValidation, detectLabelShiftNewClasses];
