import type { Curve } from "./curves.js";
import { mean, smoothingWindow } from "./stats.js";

/** How much a loss curve improved from its first window to its last. */
export interface Progress {
  first: number;
  last: number;
  /** first − last (positive when the loss fell). */
  improvement: number;
  /** improvement / |first|. */
  relative: number;
  /** improvement in standard errors of a difference of two window means. */
  z: number;
  window: number;
}

/** Improvement of a loss between the mean of its first and last w points (w = max(3, 5 %)); null under 6 points. */
export function lossProgress(c: Pick<Curve, "steps" | "values" | "noise">): Progress | null {
  const n = c.values.length;
  if (n < 6) return null;
  // max(3, ⌈0.05 n⌉) is at most ⌊n/2⌋ for every n ≥ 6: the first and last windows never overlap.
  const w = smoothingWindow(n);
  const first = mean(c.values, 0, w);
  const last = mean(c.values, n - w, n);
  const improvement = first - last;
  const se = c.noise * Math.sqrt(2 / w);
  return {
    first,
    last,
    improvement,
    relative: first !== 0 ? improvement / Math.abs(first) : 0,
    z: se > 0 ? improvement / se : improvement > 0 ? Number.POSITIVE_INFINITY : improvement < 0 ? Number.NEGATIVE_INFINITY : 0,
    window: w,
  };
}
