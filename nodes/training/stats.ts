/** Robust statistics over typed arrays, for curve detectors (DETECTORS.md §2.0). */

function copyRange(values: ArrayLike<number>, from: number, to: number): Float64Array {
  return values instanceof Float64Array ? values.slice(from, to) : Float64Array.from({ length: Math.max(0, to - from) }, (_, i) => values[from + i]!);
}

/** Median of a scratch array, reordering it in place (quickselect, O(n) on average); NaN when empty. */
export function medianInPlace(a: Float64Array): number {
  const n = a.length;
  if (n === 0) return Number.NaN;
  const m = n >> 1;
  const upper = selectInPlace(a, m);
  if (n % 2) return upper;
  let lower = a[0]!;
  for (let i = 1; i < m; i++) if (a[i]! > lower) lower = a[i]!;
  return (lower + upper) / 2;
}

/** Hoare's quickselect: puts the k-th smallest value at index k (smaller ones before it) and returns it. */
function selectInPlace(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    const pivot = a[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i++] = a[j]!;
        a[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a[k]!;
}

/**
 * Magnitude below which two values' difference, and a difference's deviation from the median of several, are
 * finite: no Infinity − Infinity (NaN) can arise from values that pass `selectable`.
 */
const SELECTABLE_LIMIT = 2 ** 1021;

/**
 * Whether values[from, to) hold no NaN, no −0 and no magnitude ≥ 2^1021: then `selectableMedianInPlace` gives
 * `medianInPlace`'s result for them, for their differences and for the deviations of those from their median
 * (a difference of two such values is never −0 either: x − x is +0).
 */
export function selectable(values: ArrayLike<number>, from = 0, to = values.length): boolean {
  for (let i = from; i < to; i++) {
    const v = values[i]!;
    if (!(Math.abs(v) < SELECTABLE_LIMIT) || (v === 0 && 1 / v < 0)) return false;
  }
  return true;
}

/**
 * `medianInPlace` for an array that passes `selectable`, about twice as fast on noisy data: partitions with no
 * data-dependent branch (each value is swapped and the boundary moves by the comparison's 0 or 1) around a median
 * of three, first the values below the pivot, then those equal to it, so ties (a frozen metric, rounded values)
 * end a round instead of costing one each. Without NaN and −0 the k-th smallest value is one number however it is
 * found, so both return the same bits. With NaN (false either way: no round would progress) or −0 (equal to +0,
 * so either may land in the middle) it must not be used.
 */
export function selectableMedianInPlace(a: Float64Array): number {
  const n = a.length;
  if (n === 0) return Number.NaN;
  const m = n >> 1;
  let lo = 0;
  let hi = n - 1;
  while (hi > lo) {
    const x = a[lo]!;
    const y = a[(lo + hi) >> 1]!;
    const pivot = Math.max(Math.min(x, y), Math.min(Math.max(x, y), a[hi]!));
    let below = lo;
    for (let j = lo; j <= hi; j++) {
      const v = a[j]!;
      a[j] = a[below]!;
      a[below] = v;
      // As a number, not `v < pivot ? 1 : 0`: V8 compiles the conditional to a branch (measured twice as slow).
      below += +(v < pivot);
    }
    if (m < below) {
      hi = below - 1;
      continue;
    }
    let equal = below;
    for (let j = below; j <= hi; j++) {
      const v = a[j]!;
      a[j] = a[equal]!;
      a[equal] = v;
      equal += +(v <= pivot);
    }
    // The pivot is one of the values, so `equal` > `below`: each round ends at the middle or narrows the range.
    if (m < equal) break;
    lo = equal;
  }
  const upper = a[m]!;
  if (n % 2) return upper;
  let lower = a[0]!;
  for (let i = 1; i < m; i++) if (a[i]! > lower) lower = a[i]!;
  return (lower + upper) / 2;
}

/** Median of the values in [from, to) (copied, input untouched); NaN when empty. */
export function median(values: ArrayLike<number>, from = 0, to = values.length): number {
  if (to <= from) return Number.NaN;
  const copy = copyRange(values, from, to);
  // The check is one pass; the faster selection saves about half of several (10^5 values: a tenth of a series).
  return selectable(copy) ? selectableMedianInPlace(copy) : medianInPlace(copy);
}

/** Median absolute deviation around the median, in [from, to). */
export function mad(values: ArrayLike<number>, from = 0, to = values.length): number {
  const m = median(values, from, to);
  const dev = copyRange(values, from, to);
  for (let i = 0; i < dev.length; i++) dev[i] = Math.abs(dev[i]! - m);
  return median(dev);
}

/** Mean of the values in [from, to). */
export function mean(values: ArrayLike<number>, from = 0, to = values.length): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += values[i]!;
  return to > from ? sum / (to - from) : Number.NaN;
}

/** Sample standard deviation in [from, to). */
export function stdev(values: ArrayLike<number>, from = 0, to = values.length): number {
  const m = mean(values, from, to);
  let ss = 0;
  for (let i = from; i < to; i++) ss += (values[i]! - m) ** 2;
  return to - from > 1 ? Math.sqrt(ss / (to - from - 1)) : 0;
}

/** Differences looked at, at most: evenly spaced pairs give the same estimate at bounded cost. */
const MAX_PAIRS = 50_000;

/**
 * Point-to-point noise of a series: σ̂ = 1.4826·MAD(Δx)/√2, robust to trends and outliers. When rounding makes
 * most differences equal (MAD 0), falls back to the mean absolute deviation of Δx (×√(π/2)/√2).
 */
export function noiseSigma(values: ArrayLike<number>): number {
  if (values.length < 3) return 0;
  const pairs = Math.min(values.length - 1, MAX_PAIRS);
  const stride = (values.length - 1) / pairs;
  const diffs = new Float64Array(pairs);
  for (let k = 0; k < pairs; k++) {
    const i = Math.floor(k * stride) + 1;
    diffs[k] = values[i]! - values[i - 1]!;
  }
  const robust = (1.4826 * mad(diffs)) / Math.SQRT2;
  if (robust > 0) return robust;
  const m = median(diffs);
  let sum = 0;
  for (const d of diffs) sum += Math.abs(d - m);
  return ((sum / diffs.length) * Math.sqrt(Math.PI / 2)) / Math.SQRT2;
}

/** DETECTORS.md §2.0 smoothing window: w = max(3, ⌈5 % of points⌉). */
export function smoothingWindow(n: number): number {
  return Math.max(3, Math.ceil(0.05 * n));
}

/** Centered moving average of width w (truncated at the edges). */
export function movingAverage(values: ArrayLike<number>, w: number): Float64Array {
  const n = values.length;
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i]! + values[i]!;
  const half = Math.floor(w / 2);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const lo = Math.max(0, i - half);
    const hi = Math.min(n, i + half + 1);
    out[i] = (prefix[hi]! - prefix[lo]!) / (hi - lo);
  }
  return out;
}

/** Index of the smallest (or largest) value in [from, to). */
export function argExtreme(values: ArrayLike<number>, kind: "min" | "max", from = 0, to = values.length): number {
  let best = from;
  for (let i = from + 1; i < to; i++) {
    if (kind === "min" ? values[i]! < values[best]! : values[i]! > values[best]!) best = i;
  }
  return best;
}

/** Indices of the smallest and the largest value (the first of equals, as `argExtreme`), in one pass. */
export function argMinMax(values: ArrayLike<number>): [number, number] {
  let lo = 0;
  let hi = 0;
  for (let i = 1; i < values.length; i++) {
    const v = values[i]!;
    if (v < values[lo]!) lo = i;
    else if (v > values[hi]!) hi = i;
  }
  return [lo, hi];
}

/** Least-squares line through (x, y) in [from, to), with the slope's t-statistic. */
export interface LineFit {
  slope: number;
  intercept: number;
  /** slope / its standard error; ±Infinity for a perfect fit, 0 with fewer than 3 points. */
  t: number;
  residualSd: number;
}

export function fitLine(x: ArrayLike<number>, y: ArrayLike<number>, from = 0, to = y.length): LineFit {
  const n = to - from;
  const mx = mean(x, from, to);
  const my = mean(y, from, to);
  let sxx = 0;
  let sxy = 0;
  for (let i = from; i < to; i++) {
    sxx += (x[i]! - mx) ** 2;
    sxy += (x[i]! - mx) * (y[i]! - my);
  }
  const slope = sxx > 0 ? sxy / sxx : 0;
  const intercept = my - slope * mx;
  let sse = 0;
  for (let i = from; i < to; i++) sse += (y[i]! - intercept - slope * x[i]!) ** 2;
  const residualSd = n > 2 ? Math.sqrt(sse / (n - 2)) : 0;
  const se = sxx > 0 && n > 2 ? residualSd / Math.sqrt(sxx) : Number.POSITIVE_INFINITY;
  const t = n < 3 ? 0 : se > 0 ? slope / se : slope === 0 ? 0 : Math.sign(slope) * Number.POSITIVE_INFINITY;
  return { slope, intercept, t, residualSd };
}

/** The q-quantile (0…1) by linear interpolation. */
export function quantile(values: ArrayLike<number>, q: number): number {
  const s = Float64Array.from(values).sort();
  if (s.length === 0) return Number.NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  return s[lo]! + (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!) * (pos - lo);
}

/** Natural log of every value (a plain loop: callbacks cost more than the logs at 10^6 points). */
export function logValues(values: Float64Array): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = Math.log(values[i]!);
  return out;
}

/**
 * Noise of a curve's level, for comparisons between stretches of evaluations: the larger of the point-to-point σ̂
 * and the robust spread around a wide moving average (W = max(5, 10 % of points)). Evaluations on one fixed
 * validation set err alike from one to the next, which makes differences understate that noise; the wide
 * residual does not.
 */
export function levelNoise(values: ArrayLike<number>, pointNoise: number): number {
  const n = values.length;
  const w = Math.max(5, Math.ceil(0.1 * n)) | 1;
  if (n < 2 * w) return pointNoise;
  const smooth = movingAverage(values, w);
  // A loop, not Float64Array.from({ length }, fn): that goes through the iteration protocol per element, ~10× the
  // time at the 60 points of a sample's validation curve, and levelNoise runs on every conclusive-step probe.
  const residuals = new Float64Array(n);
  for (let i = 0; i < n; i++) residuals[i] = values[i]! - smooth[i]!;
  return Math.max(pointNoise, (1.4826 * mad(residuals)) / Math.sqrt(1 - 1 / w));
}

/** Whether every value is > 0 (an indexed loop, for the same reason as `countNonFinite`). */
export function allPositive(values: Float64Array): boolean {
  for (let i = 0; i < values.length; i++) if (!(values[i]! > 0)) return false;
  return true;
}

/**
 * The index of the first value that is finite (`finite` true) or NaN/±Infinity (false), or -1. An indexed loop:
 * `Float64Array.findIndex` with a callback boxes every element it passes as a heap number.
 */
export function firstIndexWhereFinite(values: Float64Array, finite: boolean): number {
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i]!) === finite) return i;
  return -1;
}

/** How many values are NaN or ±Infinity (an indexed loop: typed-array iterators are slow at 10^6 points). */
export function countNonFinite(values: Float64Array): number {
  let n = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i]!)) n++;
  return n;
}
