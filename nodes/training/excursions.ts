import { medianInPlace, noiseSigma, selectable, selectableMedianInPlace } from "./stats.js";

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
  /**
   * The value above which a point is an excursion, given the local `level` and noise `sigma`; non-decreasing in
   * both, which lets a block whose highest point is under the cutoff of a lower bound of both be passed over.
   */
  cutoff(level: number, sigma: number): number;
  /** Points after an excursion within which the series must come back. */
  recoverWithin: number;
}

/** Baseline block length: about 5 % of the run, between 5 and 50 points. */
export function baselineBlock(n: number): number {
  return Math.min(50, Math.max(5, Math.floor(n / 20)));
}

/**
 * Highest and lowest value, median and robust σ̂ (from differences) of each consecutive block of b points, each
 * computed on first use with one scratch buffer: the median and σ̂ of most blocks of a long, healthy series are
 * never asked for. Those of a noisy one are (a loss's tail: ~13 k of 20 k blocks at 10^6 points), so a block with
 * no NaN, −0 or huge value has its medians taken by the faster selection, which gives the same bits for it.
 */
class BlockStats {
  private readonly highs: Float64Array;
  private readonly lows: Float64Array;
  private readonly medians: Float64Array;
  private readonly sigmas: Float64Array;
  /** A block's values, then its differences, for the selections (allocated once: a view per block costs as much). */
  private readonly scratch: Float64Array;
  private readonly diffs: Float64Array;
  /** Per block: 0 not looked at yet, 1 `selectable` (stats.ts), 2 not. */
  private readonly selectable: Uint8Array;

  constructor(
    private readonly y: Float64Array,
    private readonly b: number,
  ) {
    const blocks = Math.floor(y.length / b);
    this.highs = new Float64Array(blocks).fill(Number.NaN);
    this.lows = new Float64Array(blocks).fill(Number.NaN);
    this.medians = new Float64Array(blocks).fill(Number.NaN);
    this.sigmas = new Float64Array(blocks).fill(Number.NaN);
    this.scratch = new Float64Array(b);
    this.diffs = this.scratch.subarray(0, b - 1);
    this.selectable = new Uint8Array(blocks);
  }

  /** The median function for block k's values and their differences, chosen once per block. */
  private medianFor(k: number): (a: Float64Array) => number {
    if (this.selectable[k] === 0) this.selectable[k] = selectable(this.y, k * this.b, (k + 1) * this.b) ? 1 : 2;
    return this.selectable[k] === 1 ? selectableMedianInPlace : medianInPlace;
  }

  /** Highest value of block k; the lowest is kept with it. */
  high(k: number): number {
    if (Number.isNaN(this.highs[k]!)) [this.highs[k], this.lows[k]] = range(this.y, k * this.b, (k + 1) * this.b);
    return this.highs[k]!;
  }

  low(k: number): number {
    this.high(k);
    return this.lows[k]!;
  }

  median(k: number): number {
    if (Number.isNaN(this.medians[k]!)) {
      const { y, b, scratch } = this;
      for (let i = 0, from = k * b; i < b; i++) scratch[i] = y[from + i]!;
      this.medians[k] = this.medianFor(k)(scratch);
    }
    return this.medians[k]!;
  }

  sigma(k: number): number {
    if (Number.isNaN(this.sigmas[k]!)) {
      const { y, b } = this;
      const from = k * b;
      const median = this.medianFor(k);
      const diffs = this.diffs;
      for (let i = 0; i < b - 1; i++) diffs[i] = y[from + i + 1]! - y[from + i]!;
      const center = median(diffs);
      for (let i = 0; i < b - 1; i++) diffs[i] = Math.abs(diffs[i]! - center);
      this.sigmas[k] = (1.4826 * median(diffs)) / Math.SQRT2;
    }
    return this.sigmas[k]!;
  }

  /** Median noise of the (up to) three blocks before block k. */
  recentSigma(k: number): number {
    if (k >= 3) {
      const a = this.sigma(k - 3);
      const b = this.sigma(k - 2);
      const c = this.sigma(k - 1);
      // A σ̂ is ≥ +0 or NaN: without NaN the middle of three is the quickselect's median, with no array to select in.
      if (!Number.isNaN(a + b + c)) return middleOf(a, b, c);
    }
    const from = Math.max(0, k - 3);
    const recent = new Float64Array(k - from);
    for (let j = from; j < k; j++) recent[j - from] = this.sigma(j);
    return medianInPlace(recent);
  }
}

/**
 * Block statistics per buffer, block offset and block length, so the prefixes of one series (views of its log
 * values during the conclusive-step bisection) share the blocks they have in common. A series given to
 * `findExcursions` is never written to afterwards: every caller passes values or log values of a parsed run.
 */
const sharedStats = new WeakMap<ArrayBufferLike, Map<string, BlockStats>>();

function blockStatsOf(y: Float64Array, b: number): BlockStats {
  let byStart = sharedStats.get(y.buffer);
  if (!byStart) sharedStats.set(y.buffer, (byStart = new Map()));
  const key = `${y.byteOffset}/${b}`;
  let stats = byStart.get(key);
  if (!stats) {
    // Over the whole buffer from y's first value: a longer prefix asked later finds its blocks there too.
    const extent = new Float64Array(y.buffer, y.byteOffset, (y.buffer.byteLength - y.byteOffset) / Float64Array.BYTES_PER_ELEMENT);
    byStart.set(key, (stats = new BlockStats(extent, b)));
  }
  return stats;
}

/**
 * Finds upward excursions against a rolling baseline: each point is compared with the median of the previous
 * block and the median noise of the three blocks before it (floored at half the series' own σ̂), so the work is
 * O(n log block) even for 10^6 points. Neighbouring flagged points (gap ≤ 1) form one excursion. A block whose
 * highest point stays under the cutoff for the previous block's lowest point (≤ its median) and the floor (≤ its
 * noise) cannot hold a flagged point and is passed over without computing either statistic.
 */
export function findExcursions(y: Float64Array, rule: ExcursionRule): Excursion[] {
  const n = y.length;
  const b = baselineBlock(n);
  if (n < 3 * b) return [];
  const floor = 0.5 * noiseSigma(y);
  const stats = blockStatsOf(y, b);
  const out: Excursion[] = [];
  let open: Excursion | null = null;
  for (let k = 1; k * b < n; k++) {
    const from = k * b;
    const to = Math.min(n, from + b);
    // The last stretch of a prefix may be a partial block: its own range, not the block's.
    const high = to - from === b ? stats.high(k) : range(y, from, to)[0];
    if (high <= rule.cutoff(stats.low(k - 1), floor)) continue;
    const level = stats.median(k - 1);
    if (high <= rule.cutoff(level, floor)) continue;
    const sigma = Math.max(floor, stats.recentSigma(k));
    const cutoff = rule.cutoff(level, sigma);
    for (let i = from; i < to; i++) {
      if (!(y[i]! > cutoff)) continue;
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

/** Highest and lowest value in [from, to). */
function range(y: Float64Array, from: number, to: number): [number, number] {
  let high = Number.NEGATIVE_INFINITY;
  let low = Number.POSITIVE_INFINITY;
  for (let i = from; i < to; i++) {
    if (y[i]! > high) high = y[i]!;
    if (y[i]! < low) low = y[i]!;
  }
  return [high, low];
}

/** The middle one of three values (what the median of three is, without a copy to select in). */
function middleOf(a: number, b: number, c: number): number {
  return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
}

function recovery(y: Float64Array, e: Excursion, within: number): boolean | null {
  const limit = e.level + 3 * e.sigma;
  const last = Math.min(y.length - 3, e.end + within);
  if (e.end + 3 > y.length - 1) return null;
  for (let j = e.end + 1; j <= last; j++) if (middleOf(y[j]!, y[j + 1]!, y[j + 2]!) <= limit) return true;
  return false;
}
