import type { Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type Curve, curve } from "../curves.js";
import type { TrainingRun } from "../model.js";
import { lossProgress, type Progress } from "../progress.js";
import { numClasses } from "../run-config.js";
import { fmt, metricArtifact, pct, round, type TrainingDetector } from "./detector.js";
import { findDivergence } from "./divergence.js";

/** Relative improvement below which a loss has not learned (DeepFix min_improvement, SageMaker LossNotDecreasing). */
export const MIN_IMPROVEMENT = 0.01;

export interface NoLearning {
  curve: Curve;
  progress: Progress;
  /** The loss sat at chance level, ln K, for K stated classes. */
  chance: number | null;
}

/**
 * Whether the training loss (the validation loss if no training loss was logged) failed to improve: < 1 % relative
 * improvement from its first to its last window without diverging, or a loss that stays within 5 % of chance
 * (ln K) throughout.
 */
export function findNoLearning(run: TrainingRun): NoLearning | null {
  const c = curve(run, "train", "loss") ?? curve(run, "val", "loss");
  const progress = c && lossProgress(c);
  if (!c || !progress) return null;
  const k = numClasses(run);
  const chance = k ? Math.log(k) : null;
  const atChance = chance !== null && Math.abs(progress.first - chance) <= 0.05 * chance && Math.abs(progress.last - chance) <= 0.05 * chance;
  // A loss that rises without diverging has not learned either; a real divergence is TH-02's.
  const flat = progress.relative < MIN_IMPROVEMENT && findDivergence(c) === null;
  return flat || atChance ? { curve: c, progress, chance: atChance ? chance : null } : null;
}

/** TH-04: the loss does not go down at all. */
function detectNoLearning(run: TrainingRun): Finding[] {
  const found = findNoLearning(run);
  if (!found) return [];
  const { curve: c, progress: p, chance } = found;
  const strength = MIN_IMPROVEMENT / Math.max(Math.abs(p.relative), MIN_IMPROVEMENT / 4);
  return [
    detectorFinding({
      id: "training.no_learning",
      title: "The model is not learning",
      description: `${c.name} went from ${fmt(p.first)} to ${fmt(p.last)} (${pct(p.relative)} improvement)${chance !== null ? `, staying at the chance-level loss ln K = ${fmt(chance)}` : ""}: the model is not learning, which usually points to a bug (labels misaligned, a frozen model, a wrong loss) or a learning rate far off.`,
      evidence: [
        {
          rule_id: "TH-04",
          artifact: metricArtifact(c.name),
          text: `Mean of the first ${p.window} points ${fmt(p.first)}, of the last ${p.window} ${fmt(p.last)}: relative improvement ${pct(p.relative)} (threshold ${pct(MIN_IMPROVEMENT)}), ${fmt(p.z)} standard errors.`,
          window: [c.steps[0]!, c.steps[c.steps.length - 1]!],
          observed: round(p.relative),
          threshold: MIN_IMPROVEMENT,
          noise_estimate: round(c.noise),
          n_points: c.values.length,
          values: { first: round(p.first), last: round(p.last), chance_loss: chance === null ? null : round(chance) },
        },
      ],
      severity: "high",
      confidence: scoreConfidence({ strength, threshold: 1, points: c.values.length }),
      recommendation: {
        action: "Check that the loss at initialization is ln K, overfit a single batch, verify that labels line up with inputs and that parameters are not frozen, normalize inputs, then run a learning-rate range test.",
        rationale: "A model that cannot even overfit one batch has a bug in data, loss or optimizer wiring; these checks find it fastest.",
        category: "training",
        effort: "medium",
      },
    }),
  ];
}

export const noLearning: TrainingDetector = {
  info: {
    id: "training.no_learning",
    rule: "TH-04",
    title: "No learning",
    threshold: "train loss improves < 1 % from its first to its last window (w = max(3, 5 %)) without diverging (TH-02), or stays within 5 % of ln K",
    severities: ["high"],
    basis: "DeepFix min_improvement 0.01; SageMaker LossNotDecreasing; Karpathy's recipe [K02][K03][P-DeepDiagnosis]",
  },
  detect: detectNoLearning,
};
