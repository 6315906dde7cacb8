/** Small statistics the cross-run detectors need: quantiles of the normal and t distributions, rank correlation. */

/** Quantile of the standard normal (Acklam's rational approximation, relative error below 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile needs 0 < p < 1, got ${p}`);
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) => (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
}

/**
 * Quantile of Student's t with `df` degrees of freedom: exact for 1 and 2, interpolated between them and 3, the
 * Cornish–Fisher expansion (Abramowitz & Stegun 26.7.5) from 3, the normal quantile for an infinite df.
 */
export function tQuantile(p: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`tQuantile needs df > 0, got ${df}`);
  if (df === 1) return Math.tan(Math.PI * (p - 0.5));
  if (df === 2) return (2 * p - 1) / Math.sqrt(2 * p * (1 - p));
  if (df < 3) {
    // A Welch df between 1 and 3: linear in 1/df between the neighbouring whole df, where the expansion is poor.
    // The quantile is convex in 1/df, so this errs a little on the large (conservative) side.
    const lo = Math.floor(df);
    const hi = lo + 1;
    const w = (1 / df - 1 / hi) / (1 / lo - 1 / hi);
    return w * tQuantile(p, lo) + (1 - w) * tQuantile(p, hi);
  }
  const z = normalQuantile(p);
  if (!Number.isFinite(df)) return z;
  const g1 = (z ** 3 + z) / 4;
  const g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96;
  const g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384;
  const g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160;
  return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4;
}

/** Ranks (1-based), ties given the mean of their ranks. */
export function ranks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    for (let k = i; k <= j; k++) out[order[k]![1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return out;
}

function pearson(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  const mx = x.reduce((s, v) => s + v, 0) / n;
  const my = y.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0;
}

/** Spearman's rank correlation with a 95 % interval: Fisher's z with the variance 1.06/(n − 3) of Fieller et al. (1957). */
export function spearman(x: readonly number[], y: readonly number[]): { rho: number; low: number; high: number; n: number } {
  const n = x.length;
  const rho = pearson(ranks(x), ranks(y));
  if (n < 4) return { rho, low: -1, high: 1, n };
  const z = Math.atanh(Math.max(-0.999999, Math.min(0.999999, rho)));
  const half = 1.959964 * Math.sqrt(1.06 / (n - 3));
  return { rho, low: Math.tanh(z - half), high: Math.tanh(z + half), n };
}
