/**
 * How the statistics of parts of one tensor combine: each block into an accumulator's running totals, and what
 * an accumulator saw of a byte range (a split scan reads those on several threads) into the whole tensor's.
 */
import type { BlockMoments } from "./stats-kernels.js";

/**
 * What an accumulator saw of part of a tensor (`partial`), to be merged into the accumulator of the whole tensor
 * (`absorb`): a split scan reads byte ranges of one tensor on several threads. Every field merges: counters and
 * code counts add up, extremes take the larger, and count, mean and M2 combine by Chan, Golub & LeVeque's
 * pairwise update ("Updating formulae and a pairwise algorithm for computing sample variances", 1979), the same
 * update that folds each block into the running totals.
 */
export interface PartialTensorStats {
  /** Elements pushed. */
  count: number;
  /** Moments of the finite values read through float views, with the NaN/Inf/zero counters of every element. */
  moments: BlockMoments;
  /** The 8/16-bit float codes seen and how many times each (exact), or null for other element types. */
  codes: { code: Uint32Array; count: Float64Array } | null;
  /** Largest |value| (magnitude code for 8/16-bit floats) of units `unitFrom`… that this part touched. */
  unitMax: Float64Array | null;
  unitFrom: number;
}

/**
 * The codes that occur and their counts: what a small slice hands back is the size of what it saw (a handful of
 * codes for a norm's weights), not 65 536 float64 counters.
 */
export function sparseCounts(histogram: Float64Array): { code: Uint32Array; count: Float64Array } {
  let seen = 0;
  for (let c = 0; c < histogram.length; c++) if (histogram[c]! > 0) seen++;
  const code = new Uint32Array(seen);
  const count = new Float64Array(seen);
  for (let c = 0, i = 0; c < histogram.length; c++) {
    if (histogram[c]! === 0) continue;
    code[i] = c;
    count[i++] = histogram[c]!;
  }
  return { code, count };
}

/**
 * Folds moments `b` (a block just read, or a part of the tensor) into `total`: counters and sums add up, extremes
 * take the larger, and count, mean and M2 combine by Chan, Golub & LeVeque's pairwise update.
 */
export function mergeMoments(total: BlockMoments, b: BlockMoments): void {
  total.nan += b.nan;
  total.posInf += b.posInf;
  total.negInf += b.negInf;
  total.zeros += b.zeros;
  total.sumSq += b.sumSq;
  if (b.min < total.min) total.min = b.min;
  if (b.max > total.max) total.max = b.max;
  if (b.n === 0) return;
  const n = total.n + b.n;
  const delta = b.mean - total.mean;
  total.mean += (delta * b.n) / n;
  total.m2 += b.m2 + (delta * delta * total.n * b.n) / n;
  total.n = n;
}
