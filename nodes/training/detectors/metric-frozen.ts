import type { Evidence, Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type Curve, curve } from "../curves.js";
import type { TrainingRun } from "../model.js";
import { paramNumber } from "../params.js";
import { numClasses } from "../run-config.js";
import { fmt, metricArtifact, round, type TrainingDetector } from "./detector.js";

/** AutoTrainer δ and DeepDiagnosis FRQ: changes < 0.01 for ≥ 20 evaluations. */
const DELTA = 0.01;
const MIN_RUN = 20;
/** A metric identical to 1e-4 for that long is frozen, not converged (unless saturated at ~1). */
const CONSTANT = 1e-4;

/** Accuracies of a classifier that always predicts one class: the stated majority share, or 1/K. */
function priors(run: TrainingRun): number[] {
  const out: number[] = [];
  const majority = paramNumber(run.params, "majority_share", "majority_class_rate", "majority_rate", "class_prior");
  if (majority !== null) out.push(majority);
  const k = numClasses(run);
  if (k) out.push(1 / k);
  if (k === 2 && majority !== null) out.push(1 - majority);
  return out;
}

/** Longest stretch of consecutive changes below δ: [start, end] indices. */
function longestQuietStretch(c: Curve): [number, number] {
  let best: [number, number] = [0, 0];
  let start = 0;
  for (let i = 1; i <= c.values.length; i++) {
    if (i < c.values.length && Math.abs(c.values[i]! - c.values[i - 1]!) < DELTA) continue;
    if (i - 1 - start > best[1] - best[0]) best = [start, i - 1];
    start = i;
  }
  return best;
}

function frozenEvidence(c: Curve, priorList: number[]): Evidence | null {
  const n = c.values.length;
  const [start, end] = longestQuietStretch(c);
  const length = end - start + 1;
  if (length < Math.max(MIN_RUN, 0.3 * n)) return null;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = start; i <= end; i++) {
    lo = Math.min(lo, c.values[i]!);
    hi = Math.max(hi, c.values[i]!);
  }
  const level = (lo + hi) / 2;
  const constant = hi - lo < CONSTANT && level < 0.999;
  const prior = hi - lo < 2 * DELTA ? priorList.find((p) => Math.abs(level - p) <= DELTA) : undefined;
  if (!constant && prior === undefined) return null;
  return {
    rule_id: "TH-17",
    artifact: metricArtifact(c.name),
    text: `${c.name} stays at ${fmt(level)} (range ${fmt(hi - lo)}) for ${length} consecutive evaluations, steps ${c.steps[start]}–${c.steps[end]}${prior !== undefined ? `, the class prior ${fmt(prior)}` : ""}.`,
    window: [c.steps[start]!, c.steps[end]!],
    observed: length,
    threshold: Math.max(MIN_RUN, Math.ceil(0.3 * n)),
    n_points: n,
    values: { level: round(level), range: round(hi - lo), class_prior: prior === undefined ? null : round(prior) },
  };
}

/** TH-17: an accuracy frozen for ≥ max(20, 30 %) evaluations, exactly constant or at a class prior. */
function detectMetricFrozen(run: TrainingRun): Finding[] {
  const priorList = priors(run);
  const evidence = [curve(run, "train", "accuracy"), curve(run, "val", "accuracy")]
    .map((c) => c && frozenEvidence(c, priorList))
    .filter((e): e is Evidence => !!e);
  if (evidence.length === 0) return [];
  const atPrior = evidence.some((e) => e.values?.class_prior !== null);
  return [
    detectorFinding({
      id: "training.metric_frozen",
      title: "Accuracy frozen",
      description: `${evidence.map((e) => e.text.replace(/\.$/, "")).join("; ")}. An accuracy that does not move at all${atPrior ? " and equals a class prior" : ""} usually means the model predicts a single class.`,
      evidence,
      severity: "high",
      confidence: scoreConfidence({ strength: Number(evidence[0]!.observed), threshold: Number(evidence[0]!.threshold), corroborations: evidence.length - 1 + (atPrior ? 1 : 0) }),
      recommendation: {
        action: "Inspect the distribution of predictions; check for class collapse, the loss/activation pairing (e.g. softmax + BCE), the learning rate, and imbalance handling (class weights or resampling).",
        rationale: "A frozen accuracy at a class prior is the signature of constant predictions; fixing the loss wiring or the imbalance usually unfreezes it.",
        category: "training",
        effort: "medium",
      },
    }),
  ];
}

export const metricFrozen: TrainingDetector = {
  info: {
    id: "training.metric_frozen",
    rule: "TH-17",
    title: "Frozen metric",
    threshold: "train/val accuracy changes < 0.01 between evaluations for ≥ max(20, 30 % of them) and is either constant (range < 1e-4, below 0.999) or stays within 0.01 of a single-class accuracy (majority share or 1/K; range < 0.02)",
    severities: ["high"],
    basis: "AutoTrainer δ = 0.01; DeepDiagnosis FRQ 20 [P-DeepDiagnosis][K16]",
  },
  detect: detectMetricFrozen,
};
