import type { Finding } from "../../graph/result.js";
import { detectorFinding, scoreConfidence } from "../findings.js";
import type { MetricSeries, TrainingRun } from "./parse.js";

const isLoss = (name: string) => /loss/i.test(name);
const isVal = (name: string) => /^(val|valid|validation|eval)[_/]/i.test(name);

/** Robust noise of a series: 1.4826·MAD(Δx)/√2 (DETECTORS.md §2.0). */
export function noiseEstimate(values: readonly number[]): number {
  const diffs: number[] = [];
  for (let i = 1; i < values.length; i++) diffs.push(values[i]! - values[i - 1]!);
  if (diffs.length === 0) return 0;
  const med = median(diffs);
  return (1.4826 * median(diffs.map((d) => Math.abs(d - med)))) / Math.SQRT2;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** TH-01: any NaN/±Inf in a loss, or a loss ≥ 1e5. */
export function detectNonfiniteLoss(run: TrainingRun): Finding[] {
  return [...run.series.values()].filter((s) => isLoss(s.name)).flatMap((s) => {
    const i = s.values.findIndex((v) => !Number.isFinite(v) || Math.abs(v) >= 1e5);
    if (i < 0) return [];
    return [
      detectorFinding({
        id: "training.nonfinite_loss",
        title: "Loss became non-finite",
        description: `${s.name} is ${s.values[i]} at step ${s.steps[i]}: training diverged numerically and later results are invalid.`,
        evidence: [{ rule_id: "TH-01", artifact: `training_artifacts.metrics:${s.name}`, text: `${s.name} = ${s.values[i]} at step ${s.steps[i]}.`, observed: String(s.values[i]), threshold: "finite and < 1e5", window: [s.steps[i]!, s.steps[i]!] }],
        severity: "critical",
        confidence: 0.95,
        recommendation: { action: "Lower the learning rate about 10×, add warm-up and gradient clipping, and check the inputs and labels for NaN.", rationale: "A non-finite loss means an update overflowed; smaller, clipped steps and clean inputs remove the usual causes.", category: "training", effort: "low" },
      }),
    ];
  });
}

/** TH-13: smoothed val loss rises more than 3σ̂/√w above its minimum, several evaluations after the best. */
export function detectOverfitting(run: TrainingRun): Finding[] {
  const val = [...run.series.values()].find((s) => isVal(s.name) && isLoss(s.name));
  if (!val || val.values.length < 8 || !val.values.every(Number.isFinite)) return [];
  const w = Math.max(3, Math.ceil(0.05 * val.values.length));
  const smooth = movingAverage(val.values, w);
  let best = 0;
  for (let i = 1; i < smooth.length; i++) if (smooth[i]! < smooth[best]!) best = i;
  const last = smooth.length - 1;
  const sigma = noiseEstimate(val.values);
  const rise = smooth[last]! - smooth[best]!;
  const threshold = (3 * sigma) / Math.sqrt(w);
  if (last - best < 5 || rise <= threshold || rise <= 0.01 * Math.abs(smooth[best]!)) return [];
  return [
    detectorFinding({
      id: "training.overfitting",
      title: "Validation loss rises after its minimum",
      description: `${val.name} reached its minimum at step ${val.steps[best]} and rose by ${rise.toPrecision(3)} by step ${val.steps[last]}: the model is overfitting.`,
      evidence: [{ rule_id: "TH-13", artifact: `training_artifacts.metrics:${val.name}`, text: `Smoothed ${val.name} min ${smooth[best]!.toPrecision(4)} at step ${val.steps[best]}, ${smooth[last]!.toPrecision(4)} at step ${val.steps[last]}.`, observed: rise, threshold, noise_estimate: sigma, n_points: val.values.length, window: [val.steps[best]!, val.steps[last]!] }],
      severity: "medium",
      confidence: scoreConfidence({ strength: rise, threshold, points: val.values.length }),
      recommendation: { action: "Enable early stopping and keep the best checkpoint; add regularization (weight decay, augmentation).", rationale: "Validation loss keeps rising after its best point, so later weights generalize worse.", category: "training", effort: "low" },
    }),
  ];
}

function movingAverage(xs: readonly number[], w: number): number[] {
  const half = Math.floor(w / 2);
  return xs.map((_, i) => {
    const lo = Math.max(0, i - half);
    const hi = Math.min(xs.length, i + half + 1);
    let sum = 0;
    for (let j = lo; j < hi; j++) sum += xs[j]!;
    return sum / (hi - lo);
  });
}

export function detectTrainingFindings(run: TrainingRun): Finding[] {
  return [...detectNonfiniteLoss(run), ...detectOverfitting(run)];
}

export type { MetricSeries };
