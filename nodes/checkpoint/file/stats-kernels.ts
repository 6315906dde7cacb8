/**
 * The inner loops of the tensor statistics, kept monomorphic (one array type each) because V8 compiles them
 * best that way. Each returns its partial result in a reused `BlockMoments` record.
 */

/** Moments of one block of finite values: count, mean, sum of squared deviations, sum of squares. */
export interface BlockMoments {
  n: number;
  mean: number;
  m2: number;
  sumSq: number;
  min: number;
  max: number;
  zeros: number;
  nan: number;
  posInf: number;
  negInf: number;
}

export function emptyMoments(): BlockMoments {
  return { n: 0, mean: 0, m2: 0, sumSq: 0, min: Infinity, max: -Infinity, zeros: 0, nan: 0, posInf: 0, negInf: 0 };
}

function resetMoments(m: BlockMoments): void {
  m.n = 0;
  m.mean = 0;
  m.m2 = 0;
  m.sumSq = 0;
  m.min = Infinity;
  m.max = -Infinity;
  m.zeros = 0;
  m.nan = 0;
  m.posInf = 0;
  m.negInf = 0;
}

/** Where `fastMomentsF32` puts the one unit maximum it does not need. */
const NO_UNITS = new Float64Array(1);

/**
 * Float32 fast path: four independent lanes and no finiteness test per element. A NaN or ±Inf poisons the
 * sums, so a non-finite result sends the block to `carefulMoments`. Values are shifted by the first element so
 * the variance stays precise when |mean| ≫ std. Returns false when the block needs the careful pass. The same
 * loop as `fastMomentsF32Units`, over one unit as long as the block.
 */
export function fastMomentsF32(a: Float32Array, from: number, to: number, out: BlockMoments): boolean {
  return fastMomentsF32Units(a, from, to, out, 0, to - from, NO_UNITS);
}

/**
 * `fastMomentsF32` that also takes each output unit's largest |value| in the same pass (into `unitMax`, as
 * `unitMaxAbs` would; `first` is the tensor index of a[from]). Needs `first` and `unitSize` to be multiples of 4
 * (or a single unit from `from` to `to`), so no group of four straddles two units and the sums are formed exactly as in `fastMomentsF32` (same results).
 * Returns false when the block needs the careful pass; the unit maxima written so far are then lower bounds of
 * the true ones, which `unitMaxAbs` completes.
 */
export function fastMomentsF32Units(a: Float32Array, from: number, to: number, out: BlockMoments, first: number, unitSize: number, unitMax: Float64Array): boolean {
  const len = to - from;
  const shift = a[from] ?? 0;
  let s0 = 0, s1 = 0, q0 = 0, q1 = 0;
  let lo = Infinity, hi = -Infinity;
  let zeros = 0;
  let i = from;
  let unit = Math.floor(first / unitSize);
  let end = Math.min(to, from + unitSize - (first % unitSize));
  while (i < to) {
    // Unit extremes compared one value at a time against the running ones: rarely true, so well predicted.
    let ulo = Infinity, uhi = -Infinity;
    for (; i + 3 < end; i += 4) {
      const x = a[i]!, y = a[i + 1]!, z = a[i + 2]!, w = a[i + 3]!;
      if (x === 0 || y === 0 || z === 0 || w === 0) zeros += (x === 0 ? 1 : 0) + (y === 0 ? 1 : 0) + (z === 0 ? 1 : 0) + (w === 0 ? 1 : 0);
      if (x < ulo) ulo = x;
      if (x > uhi) uhi = x;
      if (y < ulo) ulo = y;
      if (y > uhi) uhi = y;
      if (z < ulo) ulo = z;
      if (z > uhi) uhi = z;
      if (w < ulo) ulo = w;
      if (w > uhi) uhi = w;
      const dx = x - shift, dy = y - shift, dz = z - shift, dw = w - shift;
      s0 += dx + dz;
      q0 += dx * dx + dz * dz;
      s1 += dy + dw;
      q1 += dy * dy + dw * dw;
    }
    // Only the block's last segment can have a tail (every unit boundary is a multiple of 4 from `from`).
    for (; i < end; i++) {
      const x = a[i]!;
      if (x === 0) zeros++;
      if (x < ulo) ulo = x;
      if (x > uhi) uhi = x;
      const d = x - shift;
      s0 += d;
      q0 += d * d;
    }
    if (ulo < lo) lo = ulo;
    if (uhi > hi) hi = uhi;
    const m = -ulo > uhi ? -ulo : uhi;
    if (m > unitMax[unit]!) unitMax[unit] = m;
    unit++;
    end = Math.min(to, i + unitSize);
  }
  return finishMoments(out, len, shift, s0 + s1, q0 + q1, lo, hi, zeros);
}

/**
 * Writes a block's moments from the shifted sums of the fast kernels (once per block, outside their loops);
 * false when a sum overflowed or met a non-finite value, so the caller takes the careful path.
 */
function finishMoments(out: BlockMoments, len: number, shift: number, s: number, q: number, min: number, max: number, zeros: number): boolean {
  if (!Number.isFinite(s) || !Number.isFinite(q) || !Number.isFinite(shift)) return false;
  resetMoments(out);
  out.n = len;
  out.mean = shift + s / len;
  out.m2 = Math.max(0, q - (s * s) / len);
  out.sumSq = q + 2 * shift * s + len * shift * shift;
  out.min = min;
  out.max = max;
  out.zeros = zeros;
  return true;
}

/** Any element type, one element at a time, counting NaN and ±Inf and leaving them out of the moments. */
export function carefulMoments(a: ArrayLike<number>, from: number, to: number, out: BlockMoments): void {
  resetMoments(out);
  let shift = 0;
  for (let i = from; i < to; i++) {
    if (Number.isFinite(a[i]!)) {
      shift = a[i]!;
      break;
    }
  }
  let s = 0, q = 0, sq = 0, n = 0;
  for (let i = from; i < to; i++) {
    const x = a[i]!;
    if (x !== x) out.nan++;
    else if (x === Infinity) out.posInf++;
    else if (x === -Infinity) out.negInf++;
    else {
      if (x === 0) out.zeros++;
      if (x < out.min) out.min = x;
      if (x > out.max) out.max = x;
      const d = x - shift;
      s += d;
      q += d * d;
      sq += x * x;
      n++;
    }
  }
  out.n = n;
  if (n > 0) {
    out.mean = shift + s / n;
    out.m2 = Math.max(0, q - (s * s) / n);
  }
  out.sumSq = sq;
}

/** Moments of the values a code histogram stands for (`table[code]` is the value of each code). */
export function histogramMoments(histogram: Float64Array, table: Float32Array, out: BlockMoments): void {
  resetMoments(out);
  let n = 0, sum = 0;
  for (let c = 0; c < histogram.length; c++) {
    const k = histogram[c]!;
    if (k === 0) continue;
    const x = table[c]!;
    if (x !== x) out.nan += k;
    else if (x === Infinity) out.posInf += k;
    else if (x === -Infinity) out.negInf += k;
    else {
      if (x === 0) out.zeros += k;
      if (x < out.min) out.min = x;
      if (x > out.max) out.max = x;
      n += k;
      sum += k * x;
      out.sumSq += k * x * x;
    }
  }
  out.n = n;
  if (n === 0) return;
  out.mean = sum / n;
  for (let c = 0; c < histogram.length; c++) {
    const k = histogram[c]!;
    const x = table[c]!;
    if (k > 0 && Number.isFinite(x)) out.m2 += k * (x - out.mean) ** 2;
  }
}

/**
 * Largest |value| per output unit, for float values; `first` is the index of a[0] in the tensor. Used by the
 * dead-unit proxy: a unit whose largest weight is ~0 has a ~0 norm.
 */
export function unitMaxAbs(a: Float32Array | Float64Array, first: number, unitSize: number, out: Float64Array): void {
  let unit = Math.floor(first / unitSize);
  let i = 0;
  let end = Math.min(a.length, unitSize - (first % unitSize));
  while (i < a.length) {
    let m = 0;
    for (; i < end; i++) {
      const v = a[i]!;
      const x = v < 0 ? -v : v;
      if (x > m) m = x;
    }
    if (m > out[unit]!) out[unit] = m;
    unit++;
    end = Math.min(a.length, i + unitSize);
  }
}
