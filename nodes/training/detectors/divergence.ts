import type { Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type Curve, curve, pointLabel } from "../curves.js";
import { classCount } from "../chance.js";
import { finalValue } from "../final-value.js";
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

/** A cross-entropy ending above this multiple of ln K is far worse than predicting the class prior (which scores ≤ ln K). */
const PRIOR_FACTOR = 1.5;

/** Where a loss ended far above the chance loss ln K, K known (chance.ts), and is not falling back. */
export interface WorseThanPrior {
  k: number;
  kFrom: string;
  chanceLoss: number;
  end: number;
  threshold: number;
}

/**
 * The loss (train, else val) ends > max(1.5 ln K, ln K + 3σ̂) above zero, its last window not falling significantly
 * (t > −3): the model predicts worse than a constant guess of the class prior, so its weights have blown up. Read
 * with the class count from the params, per-class names or the initial loss; a loss this high cannot itself say K.
 */
export function findWorseThanPrior(run: TrainingRun): WorseThanPrior | null {
  const c = curve(run, "train", "loss") ?? curve(run, "val", "loss");
  const classes = classCount(run);
  if (!c || !classes || c.values.length < MIN_PRIOR_POINTS) return null;
  const chanceLoss = Math.log(classes.k);
  const end = finalValue(c).value;
  const threshold = Math.max(PRIOR_FACTOR * chanceLoss, chanceLoss + 3 * c.noise);
  if (!(end > threshold)) return null;
  const w = smoothingWindow(c.values.length);
  if (fitLine(c.steps, c.values, c.values.length - w, c.values.length).t < -3) return null;
  return { k: classes.k, kFrom: classes.source, chanceLoss, end, threshold };
}

const MIN_PRIOR_POINTS = 5;

function worseThanPriorFinding(run: TrainingRun, p: WorseThanPrior): Finding {
  const c = (curve(run, "train", "loss") ?? curve(run, "val", "loss"))!;
  const n = c.values.length;
  return detectorFinding({
    id: "training.divergence",
    title: "Loss ended far above chance: worse than predicting the class prior",
    description: `${c.name} ended at ${fmt(p.end)}, above ${fmt(p.threshold)} where a model that always predicts the class prior would score at most ln ${p.k} = ${fmt(p.chanceLoss)} (K = ${p.k} from the ${p.kFrom}): the weights blew up, which almost always means the learning rate is far too high.`,
    evidence: [
      {
        rule_id: "TH-02",
        artifact: metricArtifact(c.name),
        text: `Final ${c.name} ${fmt(p.end)} against the chance-level loss ln K = ${fmt(p.chanceLoss)}; threshold max(${PRIOR_FACTOR} ln K, ln K + 3σ̂) = ${fmt(p.threshold)}.`,
        window: [c.steps[0]!, c.steps[n - 1]!],
        observed: round(p.end),
        threshold: round(p.threshold),
        noise_estimate: round(c.noise),
        n_points: n,
        values: { classes: p.k, classes_from: p.kFrom, chance_loss: round(p.chanceLoss) },
      },
    ],
    severity: "high",
    confidence: scoreConfidence({ strength: p.end, threshold: p.threshold, points: n }),
    recommendation: DIVERGENCE_ADVICE,
  });
}

const DIVERGENCE_ADVICE = {
  action: "Run a learning-rate range test and lower the peak learning rate, add warm-up and gradient clipping; if the loss jumps at a fixed step, inspect the batches there for corrupt data.",
  rationale: "A training loss that increases for good means the updates overshoot (or the data changed); the tuning playbook treats a rising training loss as a bug to fix before anything else.",
  category: "training" as const,
  effort: "low" as const,
};

/**
 * TH-02: the smoothed training loss climbs back well above its minimum and stays there; or, with K known, the loss
 * ends far above ln K (worse than the prior).
 */
function detectDivergence(run: TrainingRun): Finding[] {
  const c = curve(run, "train", "loss");
  const d = c && findDivergence(c);
  if (!c || !d) {
    const p = findWorseThanPrior(run);
    return p ? [worseThanPriorFinding(run, p)] : [];
  }
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
      recommendation: DIVERGENCE_ADVICE,
    }),
  ];
}

export const divergence: TrainingDetector = {
  info: {
    id: "training.divergence",
    rule: "TH-02",
    title: "Training loss divergence",
    threshold: "smoothed train loss ends > max(3σ̂, 50 % of (start − min), 2 % of min) above its minimum and is not falling back (last-window slope t > −3); critical when it ends ≥ its start. Else, K known (params, per-class names, initial loss): the final loss (train, else val) > max(1.5 ln K, ln K + 3σ̂), not falling (t > −3): worse than predicting the prior, high",
    severities: ["critical", "high"],
    basis: "Tuning playbook: rising training loss indicates a bug; infeasible trials [K01][K03][K04]",
  },
  detect: detectDivergence,
};
