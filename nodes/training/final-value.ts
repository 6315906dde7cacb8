import type { Curve } from "./curves.js";
import { mean, smoothingWindow } from "./stats.js";

/** Points averaged for "final" values: the smoothing window (at least 3), at most a quarter of the series. */
export function finalWindow(n: number): number {
  return Math.max(1, Math.min(smoothingWindow(n), Math.floor(n / 4)));
}

/**
 * Mean of the last few points and its standard error from the series' own noise. Evaluations on a fixed
 * validation set err alike, so their mean is given the noise of a single evaluation (`correlated`).
 */
export function finalValue(c: Curve, correlated = false): { value: number; se: number } {
  const k = finalWindow(c.values.length);
  return { value: mean(c.values, c.values.length - k), se: correlated ? c.noise : c.noise / Math.sqrt(k) };
}
