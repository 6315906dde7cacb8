import type { MetricSeries, Split, TrainingRun } from "./model.js";
import { argMinMax, countNonFinite, logValues, noiseSigma } from "./stats.js";

/** Per-step detail (spikes, clipping) or one point per evaluation/epoch (trends). */
export type Resolution = "fine" | "coarse";

/** A finite view of one series, binned to at most MAX_COARSE points for trend detectors. */
export interface Curve {
  name: string;
  steps: Float64Array;
  values: Float64Array;
  /** Epoch of each point (the last one of a bin), NaN where unknown; null when the tool logged none. */
  epochs: Float64Array | null;
  /** Finite points logged. */
  logged: number;
  /** σ̂ of `values` (DETECTORS.md §2.0). */
  readonly noise: number;
}

/** Trend detectors look at no more than this many points; longer histories are averaged into bins. */
export const MAX_COARSE = 400;

const PREFERENCE: Record<Resolution, readonly string[]> = {
  fine: ["@step", "", "@epoch"],
  coarse: ["@epoch", "", "@step"],
};

/** The series for split + quantity, preferring Lightning's `_step` logs for "fine" and `_epoch` for "coarse". */
export function pickSeries(run: TrainingRun, split: Split, quantity: string, resolution: Resolution = "coarse"): MetricSeries | undefined {
  const base = split === "none" ? quantity : `${split}/${quantity}`;
  for (const suffix of PREFERENCE[resolution]) {
    const s = run.series.get(base + suffix);
    if (s && s.values.length > 0) return s;
  }
  return undefined;
}

/** A curve whose σ̂ is computed on first use (many per-step users never need it); fields stay plain data. */
class FiniteCurve implements Curve {
  readonly steps: Float64Array;
  readonly values: Float64Array;
  readonly epochs: Float64Array | null;
  private sigma: number | undefined;

  constructor(
    readonly name: string,
    points: Points,
    readonly logged: number,
  ) {
    this.steps = points.steps;
    this.values = points.values;
    this.epochs = points.epochs;
  }

  get noise(): number {
    return (this.sigma ??= noiseSigma(this.values));
  }
}

const cache = new WeakMap<MetricSeries, Map<Resolution, Curve>>();

/** A prefix of a series (`seriesPrefix`) or of a fine curve: the whole it was cut from and the points it keeps. */
export interface Cut<T> {
  whole: T;
  length: number;
}
const seriesCuts = new WeakMap<MetricSeries, Cut<MetricSeries>>();
const curveCuts = new WeakMap<Curve, Cut<Curve>>();

/**
 * The first n points of a series, as views of its arrays. The conclusive-step bisection (detected-at.ts) runs
 * detectors on many prefixes of one run; a prefix's curves and log values are then views of the whole series'
 * ones (the finite points of a prefix are a prefix of its finite points) instead of fresh passes and copies.
 */
export function seriesPrefix(s: MetricSeries, n: number): MetricSeries {
  const whole = seriesCuts.get(s)?.whole ?? s;
  const prefix: MetricSeries = { ...s, steps: s.steps.subarray(0, n), values: s.values.subarray(0, n), epochs: s.epochs?.subarray(0, n) ?? null };
  seriesCuts.set(prefix, { whole, length: n });
  return prefix;
}

/** The series a prefix was cut from and how many points it keeps (the series itself, whole, when not a prefix). */
export function wholeSeries(s: MetricSeries): Cut<MetricSeries> {
  return seriesCuts.get(s) ?? { whole: s, length: s.values.length };
}

/** The fine curve of a series prefix: the whole series' finite points up to the prefix's last step. */
function prefixCurve(series: MetricSeries, cut: Cut<MetricSeries>): Curve {
  const whole = curveOf(cut.whole, "fine");
  const m = cut.length > 0 ? countUpTo(whole.steps, cut.whole.steps[cut.length - 1]!) : 0;
  const points = { steps: whole.steps.subarray(0, m), values: whole.values.subarray(0, m), epochs: whole.epochs?.subarray(0, m) ?? null };
  const curve = new FiniteCurve(series.name, points, m);
  curveCuts.set(curve, { whole, length: m });
  return curve;
}

const logs = new WeakMap<Curve, Float64Array>();

/** Natural log of a curve's values, computed once per series and shared (as views) by its prefixes. */
export function curveLogValues(c: Curve): Float64Array {
  let hit = logs.get(c);
  if (!hit) {
    const cut = curveCuts.get(c);
    hit = cut ? curveLogValues(cut.whole).subarray(0, cut.length) : logValues(c.values);
    logs.set(c, hit);
  }
  return hit;
}

const extremes = new WeakMap<Curve, readonly [number, number]>();

/**
 * Indices of a curve's smallest and largest value (the first of equals), found once per curve: the learning-rate
 * schedule and its peak both read them off the step-level lr.
 */
export function curveExtremes(c: Curve): readonly [number, number] {
  let hit = extremes.get(c);
  if (!hit) extremes.set(c, (hit = argMinMax(c.values)));
  return hit;
}

/**
 * The finite points of a series (binned for "coarse"); cached per series. The coarse curve bins the fine one's
 * points, and is the fine curve itself when there are too few to bin, so a series is scanned for non-finite
 * values once; a long series' scan is its binning (finitePoints).
 */
export function curveOf(series: MetricSeries, resolution: Resolution = "coarse"): Curve {
  let byRes = cache.get(series);
  if (!byRes) cache.set(series, (byRes = new Map()));
  const hit = byRes.get(resolution);
  if (hit) return hit;
  let curve: Curve;
  const cut = seriesCuts.get(series);
  if (resolution === "fine" && cut) curve = prefixCurve(series, cut);
  else if (resolution === "fine") {
    const finite = finitePoints(series);
    curve = new FiniteCurve(series.name, finite, finite.values.length);
  } else {
    const fine = curveOf(series, "fine");
    const bins = fine.values.length > MAX_COARSE ? (ownBins.get(series) ?? binMeans(fine.steps, fine.values, MAX_COARSE, fine.epochs)) : null;
    curve = bins ? new FiniteCurve(series.name, bins, fine.logged) : fine;
  }
  byRes.set(resolution, curve);
  return curve;
}

/** How many points of a series are NaN or ±Infinity (counted once per series). */
export function nonFiniteCount(series: MetricSeries): number {
  return series.values.length - curveOf(series, "fine").logged;
}

/** `pickSeries` then `curveOf`; undefined when the run has no finite point of it. */
export function curve(run: TrainingRun, split: Split, quantity: string, resolution: Resolution = "coarse"): Curve | undefined {
  const s = pickSeries(run, split, quantity, resolution);
  if (!s) return undefined;
  const c = curveOf(s, resolution);
  return c.values.length > 0 ? c : undefined;
}

/** Points of a curve: steps, values and (when logged) epochs. */
interface Points {
  steps: Float64Array;
  values: Float64Array;
  epochs: Float64Array | null;
}

/** A whole series' bins, made while finding it finite (finitePoints): they are its coarse curve's. */
const ownBins = new WeakMap<MetricSeries, Points>();

function finitePoints(s: MetricSeries): Points {
  // The arrays in locals, not read through the series on every point (see nonfinite-loss.ts, badIndices).
  const { steps, values, epochs } = s;
  if (values.length > MAX_COARSE) {
    // A bin's sum is NaN or ±Infinity when one of its values is, so finite bins mean finite values (finite values
    // whose sum overflows only send it the long way), and the series' points are its fine curve, binned as the
    // coarse curve bins them: one pass serves both, instead of a count and then the bins.
    const bins = binMeans(steps, values, MAX_COARSE, epochs);
    if (bins.values.every(Number.isFinite)) {
      ownBins.set(s, bins);
      return { steps, values, epochs };
    }
  }
  const n = values.length - countNonFinite(values);
  if (n === values.length) return { steps, values, epochs };
  const out: Points = { steps: new Float64Array(n), values: new Float64Array(n), epochs: epochs ? new Float64Array(n) : null };
  let j = 0;
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i]!)) continue;
    out.steps[j] = steps[i]!;
    if (out.epochs) out.epochs[j] = epochs![i]!;
    out.values[j++] = values[i]!;
  }
  return out;
}

/** Averages consecutive points into `bins` bins of (nearly) equal count; a bin's step and epoch are its last. */
export function binMeans(steps: Float64Array, values: Float64Array, bins: number, epochs: Float64Array | null = null): Points {
  const n = values.length;
  const out: Points = { steps: new Float64Array(bins), values: new Float64Array(bins), epochs: epochs ? new Float64Array(bins) : null };
  for (let b = 0; b < bins; b++) {
    const lo = Math.floor((b * n) / bins);
    const hi = Math.floor(((b + 1) * n) / bins);
    let sum = 0;
    for (let i = lo; i < hi; i++) sum += values[i]!;
    out.steps[b] = steps[hi - 1]!;
    if (out.epochs) out.epochs[b] = epochs![hi - 1]!;
    out.values[b] = sum / (hi - lo);
  }
  return out;
}

/** "step 7079 (epoch 23)" for point i of a curve; the epoch only when it is known and says something new. */
export function pointLabel(c: Curve, i: number): string {
  const step = c.steps[i]!;
  const epoch = c.epochs?.[i];
  return epoch !== undefined && Number.isFinite(epoch) && epoch !== step ? `step ${step} (epoch ${Number(epoch.toPrecision(4))})` : `step ${step}`;
}

/** Value of a curve at a step: linear interpolation between neighbours, clamped at the ends. */
export function valueAt(c: Pick<Curve, "steps" | "values">, step: number): number {
  const { steps, values } = c;
  if (step <= steps[0]!) return values[0]!;
  if (step >= steps[steps.length - 1]!) return values[values.length - 1]!;
  let lo = 0;
  let hi = steps.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (steps[mid]! <= step) lo = mid;
    else hi = mid;
  }
  const span = steps[hi]! - steps[lo]!;
  return span > 0 ? values[lo]! + ((values[hi]! - values[lo]!) * (step - steps[lo]!)) / span : values[hi]!;
}

/** Points of an ascending series at steps < `step`, or ≤ `step` when `inclusive` (binary search). */
function countSteps(steps: Float64Array, step: number, inclusive: boolean): number {
  let lo = 0;
  let hi = steps.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (steps[mid]! < step || (inclusive && steps[mid] === step)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first step > `step` in an ascending series (the number of points at or before it). */
export const countUpTo = (steps: Float64Array, step: number) => countSteps(steps, step, true);

/** Index of the first step ≥ `step` in an ascending series (the number of points before it). */
export const countBefore = (steps: Float64Array, step: number) => countSteps(steps, step, false);

/** First and last logged step over every series: the run's extent. */
export function runExtent(run: TrainingRun): { first: number; last: number } {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const s of run.series.values()) {
    first = Math.min(first, s.steps[0]!);
    last = Math.max(last, s.steps[s.steps.length - 1]!);
  }
  return Number.isFinite(first) ? { first, last } : { first: 0, last: 0 };
}
