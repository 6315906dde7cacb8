/** The q-quantile (0–1) of samples by linear interpolation between closest ranks. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) throw new RangeError("quantile of no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export const median = (samples: readonly number[]) => quantile(samples, 0.5);

/** Least-squares slope of log(y) against log(x): the growth exponent (1 = linear). */
export function logLogSlope(xs: readonly number[], ys: readonly number[]): number {
  if (xs.length !== ys.length || xs.length < 2) throw new RangeError("need at least two (x, y) pairs");
  const lx = xs.map(Math.log);
  const ly = ys.map(Math.log);
  const mx = lx.reduce((a, b) => a + b, 0) / lx.length;
  const my = ly.reduce((a, b) => a + b, 0) / ly.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < lx.length; i++) {
    num += (lx[i]! - mx) * (ly[i]! - my);
    den += (lx[i]! - mx) ** 2;
  }
  return num / den;
}

/** Rounds for display and JSON: 3 significant digits, whole numbers above 1000. */
export function round(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  if (Math.abs(x) >= 1000) return Math.round(x);
  return Number(x.toPrecision(3));
}

/** Milliseconds since `start` (a performance.now() reading). */
export const since = (start: number) => performance.now() - start;
