import { curve, nonFiniteCount, pickSeries } from "./curves.js";
import { findLossSpikes } from "./detectors/loss-spikes.js";
import type { TrainingFacts } from "./facts.js";
import { peakLearningRate } from "./learning-rate.js";
import type { MetricSeries, TrainingRun } from "./model.js";
import { baseName } from "./names.js";
import { bestCheckpointKept, earlyStopping, numClasses } from "./run-config.js";

/** Last finite value of a series. */
function lastFinite(s: MetricSeries | undefined): number | null {
  if (!s) return null;
  for (let i = s.values.length - 1; i >= 0; i--) if (Number.isFinite(s.values[i]!)) return s.values[i]!;
  return null;
}

/**
 * Index of the best finite value (smallest or largest; the first of equals), −1 when none is finite. One loop per
 * goal, each with a single comparison chain per point (this runs over every point of a 10^6-step series): starting
 * from +Infinity, the first finite value is below it and −Infinity is refused by the second test; NaN fails both.
 */
function bestIndex(s: MetricSeries, goal: "min" | "max"): number {
  const values = s.values;
  let best = -1;
  if (goal === "min") {
    let low = Number.POSITIVE_INFINITY;
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      if (v < low && v > Number.NEGATIVE_INFINITY) {
        best = i;
        low = v;
      }
    }
  } else {
    let high = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      if (v > high && v < Number.POSITIVE_INFINITY) {
        best = i;
        high = v;
      }
    }
  }
  return best;
}

/** The largest finite value, or null when there is none. */
function largestFinite(values: ArrayLike<number>): number | null {
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i]!) && values[i]! > max) max = values[i]!;
  return Number.isFinite(max) ? max : null;
}

/** The numbers the cross-artifact rules read, from the parsed run. */
export function trainingFacts(run: TrainingRun): TrainingFacts {
  const all = [...run.series.values()];
  const valLoss = pickSeries(run, "val", "loss");
  const valAcc = pickSeries(run, "val", "accuracy");
  const best = valLoss ?? valAcc;
  const i = best ? bestIndex(best, valLoss ? "min" : "max") : -1;
  const accBest = valAcc ? bestIndex(valAcc, "max") : -1;
  const spikes = findLossSpikes(run);
  const noiseCurve = valLoss ? curve(run, "val", "loss") : curve(run, "val", "accuracy");
  return {
    metrics: [...new Set(all.map((s) => baseName(s.name)))].sort(),
    n_points: all.reduce((n, s) => n + s.values.length, 0),
    val_quantities: [...new Set(all.filter((s) => s.split === "val").map((s) => s.quantity))].sort(),
    last_step: largestFinite(all.map((s) => s.steps[s.steps.length - 1]!)),
    last_epoch: largestFinite(all.flatMap((s) => (s.epochs ? [largestFinite(s.epochs) ?? Number.NaN] : []))),
    best_val_step: best && i >= 0 ? best.steps[i]! : null,
    best_val_epoch: best?.epochs && i >= 0 && Number.isFinite(best.epochs[i]!) ? best.epochs[i]! : null,
    best_val_loss: valLoss && i >= 0 ? valLoss.values[i]! : null,
    final_val_loss: lastFinite(valLoss),
    final_train_loss: lastFinite(pickSeries(run, "train", "loss")),
    best_val_accuracy: valAcc && accBest >= 0 ? valAcc.values[accBest]! : null,
    final_val_accuracy: lastFinite(valAcc),
    final_train_accuracy: lastFinite(pickSeries(run, "train", "accuracy")),
    val_noise: noiseCurve && noiseCurve.values.length >= 3 ? noiseCurve.noise : null,
    spike_steps: spikes ? spikes.spikes.map((s) => spikes.steps[s.peak]!) : [],
    lr_peak_step: peakLearningRate(run)?.step ?? null,
    losses_finite: all.every((s) => s.quantity !== "loss" || nonFiniteCount(s) === 0),
    params: run.params,
    format: run.format,
    num_classes: numClasses(run),
    best_checkpoint_kept: bestCheckpointKept(run),
    early_stopping: earlyStopping(run),
    val_samples: run.meta.valSamples,
    log_events: Object.fromEntries(Object.entries(run.logs.counts).filter(([, n]) => n !== undefined)) as Record<string, number>,
  };
}
