import { curve, curveExtremes } from "./curves.js";
import type { TrainingRun } from "./model.js";
import { paramNumber } from "./params.js";

/** The learning rate's peak and where it came from: the logged lr series, else the params. */
export interface PeakLr {
  value: number;
  step: number | null;
  source: "series" | "params";
}

/** Found once per run: the lr-too-high detector and the facts both ask, and a step-level lr is 10^6 points long. */
const peaks = new WeakMap<TrainingRun, PeakLr | null>();

export function peakLearningRate(run: TrainingRun): PeakLr | null {
  if (!peaks.has(run)) peaks.set(run, peakOf(run));
  return peaks.get(run)!;
}

function peakOf(run: TrainingRun): PeakLr | null {
  const lr = curve(run, "none", "lr", "fine");
  if (lr) {
    const [, i] = curveExtremes(lr);
    return { value: lr.values[i]!, step: lr.steps[i]!, source: "series" };
  }
  const value = paramNumber(run.params, "learning_rate", "lr", "max_lr", "peak_lr", "base_lr");
  return value !== null && value > 0 ? { value, step: null, source: "params" } : null;
}
