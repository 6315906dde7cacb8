import { curve } from "./curves.js";
import type { TrainingRun } from "./model.js";
import { paramNumber } from "./params.js";
import { argExtreme } from "./stats.js";

/** The learning rate's peak and where it came from: the logged lr series, else the params. */
export interface PeakLr {
  value: number;
  step: number | null;
  source: "series" | "params";
}

export function peakLearningRate(run: TrainingRun): PeakLr | null {
  const lr = curve(run, "none", "lr", "fine");
  if (lr) {
    const i = argExtreme(lr.values, "max");
    return { value: lr.values[i]!, step: lr.steps[i]!, source: "series" };
  }
  const value = paramNumber(run.params, "learning_rate", "lr", "max_lr", "peak_lr", "base_lr");
  return value !== null && value > 0 ? { value, step: null, source: "params" } : null;
}
