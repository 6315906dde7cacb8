import type { Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type Curve, curve, pointLabel } from "../curves.js";
import type { TrainingRun } from "../model.js";
import { argExtreme, fitLine, logValues, mean, movingAverage, noiseSigma, smoothingWindow } from "../stats.js";
import { fmt, metricArtifact, round, type TrainingDetector } from "./detector.js";

/** A rise smaller than 2 % of the loss is not a divergence, however quiet the curve. */
const MATERIAL = 0.02;

export interface Divergence {
  start: number;
  min: number;
  minIndex: number;
  end: number;
  rise: number;
  threshold: number;
  window: number;
}

/**
 * Whether a smoothed loss ends well above its minimum: final − min > max(3σ̂, 50 % of the drop start → min, 2 % of
 * the minimum), the minimum is not at the end and the last window is not falling back significantly. A positive
 * loss that spans more than a factor 10 is also judged on a log scale: a loss that grows multiplicatively (SGD
 * overshooting, 1 → 500 with swings of 10×) has a linear σ̂ as large as its rise, but a steady rise in log terms.
 */
export function findDivergence(c: Curve): Divergence | null {
  const linear = divergenceOf(c.steps, c.values, c.noise);
  if (linear || c.values.length < 10) return linear;
  let lo = Number.POSITIVE_INFINITY;
  let hi = 0;
  for (const v of c.values) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  if (!(lo > 0) || hi < LOG_SCALE_SPAN * lo) return null;
  const logs = logValues(c.values);
  const d = divergenceOf(c.steps, logs, noiseSigma(logs));
  if (!d) return null;
  // Reported in the loss's own units: geometric means of the same windows.
  return { ...d, start: Math.exp(d.start), min: Math.exp(d.min), end: Math.exp(d.end), rise: Math.exp(d.end) - Math.exp(d.min), threshold: Math.exp(d.min + d.threshold) - Math.exp(d.min) };
}

/** A loss spanning this factor between its extremes is also judged on a log scale. */
const LOG_SCALE_SPAN = 10;

function divergenceOf(steps: Float64Array, values: Float64Array, noise: number): Divergence | null {
  const n = values.length;
  if (n < 10) return null;
  const w = smoothingWindow(n);
  const s = movingAverage(values, w);
  // Only full windows: the truncated ones at the edges are noisier and would bias the minimum low.
  const half = Math.floor(w / 2);
  const minIndex = argExtreme(s, "min", half, n - half);
  const start = mean(values, 0, w);
  const end = mean(values, n - w, n);
  const min = s[minIndex]!;
  const rise = end - min;
  const threshold = Math.max(3 * noise, 0.5 * (start - min), MATERIAL * Math.abs(min));
  if (minIndex > n - w || rise <= threshold) return null;
  if (fitLine(steps, values, n - w, n).t < -3) return null;
  return { start, min, minIndex, end, rise, threshold, window: w };
}

/** TH-02: the smoothed training loss climbs back well above its minimum and stays there. */
function detectDivergence(run: TrainingRun): Finding[] {
  const c = curve(run, "train", "loss");
  const d = c && findDivergence(c);
  if (!c || !d) return [];
  const aboveStart = d.end >= d.start;
  const minStep = c.steps[d.minIndex]!;
  const lastStep = c.steps[c.steps.length - 1]!;
  return [
    detectorFinding({
      id: "training.divergence",
      title: aboveStart ? "Training loss diverged above its starting value" : "Training loss diverged after its minimum",
      description: `The smoothed ${c.name} fell to ${fmt(d.min)} at ${pointLabel(c, d.minIndex)}, then rose to ${fmt(d.end)} by ${pointLabel(c, c.steps.length - 1)}${aboveStart ? `, above where it started (${fmt(d.start)})` : ""}: optimization became unstable, which usually means the learning rate is too high or the data pipeline broke.`,
      evidence: [
        {
          rule_id: "TH-02",
          artifact: metricArtifact(c.name),
          text: `Smoothed ${c.name}: start ${fmt(d.start)}, minimum ${fmt(d.min)} at ${pointLabel(c, d.minIndex)}, end ${fmt(d.end)}; rise ${fmt(d.rise)} against a threshold of ${fmt(d.threshold)}.`,
          window: [minStep, lastStep],
          observed: round(d.rise),
          threshold: round(d.threshold),
          noise_estimate: round(c.noise),
          n_points: c.values.length,
          values: { start: round(d.start), min: round(d.min), end: round(d.end), smoothing_window: d.window },
        },
      ],
      severity: aboveStart ? "critical" : "high",
      confidence: scoreConfidence({ strength: d.rise, threshold: d.threshold, points: c.values.length }),
      recommendation: {
        action: "Run a learning-rate range test and lower the peak learning rate, add warm-up and gradient clipping; if the loss jumps at a fixed step, inspect the batches there for corrupt data.",
        rationale: "A training loss that increases for good means the updates overshoot (or the data changed); the tuning playbook treats a rising training loss as a bug to fix before anything else.",
        category: "training",
        effort: "low",
      },
    }),
  ];
}

export const divergence: TrainingDetector = {
  info: {
    id: "training.divergence",
    rule: "TH-02",
    title: "Training loss divergence",
    threshold: "smoothed train loss ends > max(3σ̂, 50 % of (start − min), 2 % of min) above its minimum and is not falling back (last-window slope t > −3); critical when it ends ≥ its start",
    severities: ["critical", "high"],
    basis: "Tuning playbook: rising training loss indicates a bug; infeasible trials [K01][K03][K04]",
  },
  detect: detectDivergence,
};
