import { median, medianInPlace, noiseSigma } from "./stats.js";

/** A run of consecutive points far above the recent level of a series. */
export interface Excursion {
  /** Indices of the first, last and highest point. */
  start: number;
  end: number;
  peak: number;
  /** Level (median of the preceding block) and local noise it was measured against. */
  level: number;
  sigma: number;
  /** Back within 3σ of the level soon after; null when the series ends too soon to tell. */
  recovered: boolean | null;
}

export interface ExcursionRule {
  /** The value above which a point is an excursion, given the local `level` and noise `sigma`. */
  cutoff(level: number, sigma: number): number;
  /** Points after an excursion within which the series must come back. */
  recoverWithin: number;
}

/** Baseline block length: about 5 % of the run, between 5 and 50 points. */
export function baselineBlock(n: number): number {
  return Math.min(50, Math.max(5, Math.floor(n / 20)));
}

/** Median and robust σ̂ (from differences) of each consecutive block of b points, with one scratch buffer. */
function blockStats(y: Float64Array, b: number): { medians: Float64Array; sigmas: Float64Array } {
  const blocks = Math.floor(y.length / b);
  const medians = new Float64Array(blocks);
  const sigmas = new Float64Array(blocks);
  const scratch = new Float64Array(b);
  for (let k = 0; k < blocks; k++) {
    const from = k * b;
    scratch.set(y.subarray(from, from + b));
    medians[k] = medianInPlace(scratch);
    const diffs = scratch.subarray(0, b - 1);
    for (let i = 0; i < b - 1; i++) diffs[i] = y[from + i + 1]! - y[from + i]!;
    const center = medianInPlace(diffs);
    for (let i = 0; i < b - 1; i++) diffs[i] = Math.abs(diffs[i]! - center);
    sigmas[k] = (1.4826 * medianInPlace(diffs)) / Math.SQRT2;
  }
  return { medians, sigmas };
}

/**
 * Finds upward excursions against a rolling baseline: each point is compared with the median of the previous
 * block and the median noise of the three blocks before it (floored at half the series' own σ̂), so the work is
 * O(n log block) even for 10^6 points. Neighbouring flagged points (gap ≤ 1) form one excursion.
 */
export function findExcursions(y: Float64Array, rule: ExcursionRule): Excursion[] {
  const n = y.length;
  const b = baselineBlock(n);
  if (n < 3 * b) return [];
  const floor = 0.5 * noiseSigma(y);
  const { medians, sigmas } = blockStats(y, b);
  const out: Excursion[] = [];
  let open: Excursion | null = null;
  let level = 0;
  let sigma = 0;
  let cutoff = Number.POSITIVE_INFINITY;
  for (let i = b; i < n; i++) {
    if (i % b === 0) {
      const k = i / b;
      level = medians[k - 1]!;
      sigma = Math.max(floor, median(sigmas, Math.max(0, k - 3), k));
      cutoff = rule.cutoff(level, sigma);
    }
    if (y[i]! > cutoff) {
      if (open && i - open.end <= 2) {
        open.end = i;
        if (y[i]! > y[open.peak]!) open.peak = i;
      } else {
        if (open) out.push(open);
        open = { start: i, end: i, peak: i, level, sigma, recovered: null };
      }
    }
  }
  if (open) out.push(open);
  for (const e of out) e.recovered = recovery(y, e, rule.recoverWithin);
  return out;
}

function recovery(y: Float64Array, e: Excursion, within: number): boolean | null {
  const limit = e.level + 3 * e.sigma;
  const last = Math.min(y.length - 3, e.end + within);
  if (e.end + 3 > y.length - 1) return null;
  for (let j = e.end + 1; j <= last; j++) if (median(y, j, j + 3) <= limit) return true;
  return false;
}
