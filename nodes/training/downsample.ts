/**
 * Largest-Triangle-Three-Buckets downsampling (Steinarsson 2013): keeps the first and last point and, per bucket,
 * the point that spans the largest triangle with its neighbours, so peaks and turns survive. Indices returned.
 */
export function lttbIndices(x: ArrayLike<number>, y: ArrayLike<number>, target: number): number[] {
  const n = y.length;
  if (target >= n) return Array.from({ length: n }, (_, i) => i);
  if (target < 3) return n > 1 ? [0, n - 1] : [0];
  const out = [0];
  const size = (n - 2) / (target - 2);
  let a = 0;
  for (let b = 0; b < target - 2; b++) {
    const lo = Math.floor(b * size) + 1;
    const hi = Math.floor((b + 1) * size) + 1;
    const nextLo = hi;
    const nextHi = Math.min(n, Math.floor((b + 2) * size) + 1);
    let ax = 0;
    let ay = 0;
    for (let i = nextLo; i < nextHi; i++) {
      ax += x[i]!;
      ay += y[i]!;
    }
    const count = Math.max(1, nextHi - nextLo);
    ax /= count;
    ay /= count;
    // The previous pick's terms, read once per bucket rather than per point (the same arithmetic, in the same order).
    const xa = x[a]!;
    const ya = y[a]!;
    const dx = xa - ax;
    const dy = ay - ya;
    let best = lo;
    let bestArea = -1;
    for (let i = lo; i < hi; i++) {
      const area = Math.abs(dx * (y[i]! - ya) - (xa - x[i]!) * dy);
      if (area > bestArea) {
        best = i;
        bestArea = area;
      }
    }
    out.push(best);
    a = best;
  }
  out.push(n - 1);
  return out;
}
