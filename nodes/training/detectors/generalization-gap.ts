import type { Finding, Severity } from "../../../graph/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type Curve, curve } from "../curves.js";
import type { TrainingRun } from "../model.js";
import { mean, smoothingWindow } from "../stats.js";
import { fmt, metricArtifact, pct, round, type TrainingDetector } from "./detector.js";

/** Points averaged for "final" values: the smoothing window (at least 3), at most a quarter of the series. */
export function finalWindow(n: number): number {
  return Math.max(1, Math.min(smoothingWindow(n), Math.floor(n / 4)));
}

/**
 * Mean of the last few points and its standard error from the series' own noise. Evaluations on a fixed
 * validation set err alike, so their mean is given the noise of a single evaluation (`correlated`).
 */
export function finalValue(c: Curve, correlated = false): { value: number; se: number } {
  const k = finalWindow(c.values.length);
  return { value: mean(c.values, c.values.length - k), se: correlated ? c.noise : c.noise / Math.sqrt(k) };
}

interface Gap {
  kind: "accuracy" | "loss";
  train: Curve;
  val: Curve;
  trainFinal: number;
  valFinal: number;
  gap: number;
  band: number;
  severity: Severity;
  se: number;
}

/** AutoTrainer accuracy bands: gap ≥ 0.10 (train ≤ 0.9) or ≥ 0.07 (train > 0.9); high at twice the band. */
function accuracyGap(train: Curve, val: Curve): Gap | null {
  const t = finalValue(train);
  const v = finalValue(val, true);
  const gap = t.value - v.value;
  const band = t.value > 0.9 ? 0.07 : 0.1;
  const se = Math.hypot(t.se, v.se);
  if (gap < band || gap <= 3 * se) return null;
  return { kind: "accuracy", train, val, trainFinal: t.value, valFinal: v.value, gap, band, se, severity: gap >= 2 * band ? "high" : "medium" };
}

/** DeepFix loss bands: (val − train)/train > 0.15 medium, > 0.3 high. */
function lossGap(train: Curve, val: Curve): Gap | null {
  const t = finalValue(train);
  const v = finalValue(val, true);
  if (t.value <= 0) return null;
  const gap = (v.value - t.value) / t.value;
  const se = Math.hypot(t.se, v.se);
  if (gap <= 0.15 || v.value - t.value <= 3 * se) return null;
  return { kind: "loss", train, val, trainFinal: t.value, valFinal: v.value, gap, band: 0.15, se, severity: gap > 0.3 ? "high" : "medium" };
}

/** TH-14: the final train and validation metrics are far apart (accuracy when logged, else loss). */
function detectGeneralizationGap(run: TrainingRun): Finding[] {
  const trainAcc = curve(run, "train", "accuracy");
  const valAcc = curve(run, "val", "accuracy");
  const trainLoss = curve(run, "train", "loss");
  const valLoss = curve(run, "val", "loss");
  const g = trainAcc && valAcc ? accuracyGap(trainAcc, valAcc) : trainLoss && valLoss ? lossGap(trainLoss, valLoss) : null;
  if (!g) return [];
  const what = g.kind === "accuracy" ? `${fmt(g.gap)} accuracy` : `${pct(g.gap)} relative loss`;
  return [
    detectorFinding({
      id: "training.generalization_gap",
      title: "Large generalization gap",
      description: `At the end of training ${g.train.name} is ${fmt(g.trainFinal)} against ${fmt(g.valFinal)} for ${g.val.name}, a ${what} gap: the model fits the training data much better than data it has not seen (overfitting, or validation data from a different distribution).`,
      evidence: [
        {
          rule_id: "TH-14",
          artifact: metricArtifact(g.val.name),
          text: `Final (mean of the last ${finalWindow(g.train.values.length)}/${finalWindow(g.val.values.length)} points) ${g.train.name} ${fmt(g.trainFinal)}, ${g.val.name} ${fmt(g.valFinal)}; gap ${g.kind === "accuracy" ? fmt(g.gap) : pct(g.gap)} against a band of ${g.kind === "accuracy" ? fmt(g.band) : pct(g.band)} (high at ${g.kind === "accuracy" ? fmt(2 * g.band) : "30 %"}).`,
          window: [g.val.steps[g.val.steps.length - 1]!, g.val.steps[g.val.steps.length - 1]!],
          observed: round(g.gap),
          threshold: g.band,
          noise_estimate: round(g.se),
          n_points: g.val.values.length,
          values: { metric: g.kind, train_final: round(g.trainFinal), val_final: round(g.valFinal) },
        },
      ],
      severity: g.severity,
      confidence: scoreConfidence({ strength: g.gap, threshold: g.band, points: g.val.values.length, benignPossible: true }),
      recommendation: {
        action: "First rule out a split problem (train/validation drift or leakage); then regularize (weight decay, dropout, augmentation), collect more data or use a smaller model.",
        rationale: "A gap this size means the fit does not transfer; when validation comes from a shifted distribution, regularization alone will not close it.",
        category: "training",
        effort: "medium",
      },
    }),
  ];
}

export const generalizationGap: TrainingDetector = {
  info: {
    id: "training.generalization_gap",
    rule: "TH-14",
    title: "Generalization gap",
    threshold: "final accuracy gap ≥ 0.10 (train ≤ 0.9) or ≥ 0.07 (train > 0.9), high at 2× the band; without accuracies, (val − train)/train loss > 0.15 medium, > 0.3 high; gap > 3 SE",
    severities: ["high", "medium"],
    basis: "AutoTrainer gap bands; DeepFix loss-gap bands; Zhang et al. on memorization [K01][K28]",
  },
  detect: detectGeneralizationGap,
};
