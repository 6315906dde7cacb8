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

/**
 * Float32 fast path: four independent lanes and no finiteness test per element. A NaN or ±Inf poisons the
 * sums, so a non-finite result sends the block to `carefulMoments`. Values are shifted by the first element so
 * the variance stays precise when |mean| ≫ std. Returns false when the block needs the careful pass.
 */
export function fastMomentsF32(a: Float32Array, from: number, to: number, out: BlockMoments): boolean {
  const len = to - from;
  const shift = a[from] ?? 0;
  let s0 = 0, s1 = 0, q0 = 0, q1 = 0;
  let lo0 = Infinity, lo1 = Infinity, hi0 = -Infinity, hi1 = -Infinity;
  let zeros = 0;
  let i = from;
  for (; i + 3 < to; i += 4) {
    const x = a[i]!, y = a[i + 1]!, z = a[i + 2]!, w = a[i + 3]!;
    if (x === 0 || y === 0 || z === 0 || w === 0) zeros += (x === 0 ? 1 : 0) + (y === 0 ? 1 : 0) + (z === 0 ? 1 : 0) + (w === 0 ? 1 : 0);
    const a0 = x < y ? x : y, b0 = x < y ? y : x;
    const a1 = z < w ? z : w, b1 = z < w ? w : z;
    if (a0 < lo0) lo0 = a0;
    if (b0 > hi0) hi0 = b0;
    if (a1 < lo1) lo1 = a1;
    if (b1 > hi1) hi1 = b1;
    const dx = x - shift, dy = y - shift, dz = z - shift, dw = w - shift;
    s0 += dx + dz;
    q0 += dx * dx + dz * dz;
    s1 += dy + dw;
    q1 += dy * dy + dw * dw;
  }
  for (; i < to; i++) {
    const x = a[i]!;
    if (x === 0) zeros++;
    if (x < lo0) lo0 = x;
    if (x > hi0) hi0 = x;
    const d = x - shift;
    s0 += d;
    q0 += d * d;
  }
  const s = s0 + s1;
  const q = q0 + q1;
  if (!Number.isFinite(s) || !Number.isFinite(q) || !Number.isFinite(shift)) return false;
  resetMoments(out);
  out.n = len;
  out.mean = shift + s / len;
  out.m2 = Math.max(0, q - (s * s) / len);
  out.sumSq = q + 2 * shift * s + len * shift * shift;
  out.min = lo0 < lo1 ? lo0 : lo1;
  out.max = hi0 > hi1 ? hi0 : hi1;
  out.zeros = zeros;
  return true;
}

/**
 * `fastMomentsF32` that also takes each output unit's largest |value| in the same pass (into `unitMax`, as
 * `unitMaxAbs` would; `first` is the tensor index of a[from]). Needs `first` and `unitSize` to be multiples of 4,
 * so no group of four straddles two units and the sums are formed exactly as in `fastMomentsF32` (same results).
 * Returns false when the block needs the careful pass; the unit maxima written so far are then lower bounds of
 * the true ones, which `unitMaxAbs` completes.
 */
export function fastMomentsF32Units(a: Float32Array, from: number, to: number, out: BlockMoments, first: number, unitSize: number, unitMax: Float64Array): boolean {
  const len = to - from;
  const shift = a[from] ?? 0;
  let s0 = 0, s1 = 0, q0 = 0, q1 = 0;
  let lo0 = Infinity, lo1 = Infinity, hi0 = -Infinity, hi1 = -Infinity;
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
      const a0 = x < y ? x : y, b0 = x < y ? y : x;
      const a1 = z < w ? z : w, b1 = z < w ? w : z;
      if (a0 < ulo) ulo = a0;
      if (a1 < ulo) ulo = a1;
      if (b0 > uhi) uhi = b0;
      if (b1 > uhi) uhi = b1;
      const dx = x - shift, dy = y - shift, dz = z - shift, dw = w - shift;
      s0 += dx + dz;
      q0 += dx * dx + dz * dz;
      s1 += dy + dw;
      q1 += dy * dy + dw * dw;
    }
    if (ulo < lo0) lo0 = ulo;
    if (uhi > hi0) hi0 = uhi;
    // Only the block's last segment can have a tail (every unit boundary is a multiple of 4 from `from`).
    for (; i < end; i++) {
      const x = a[i]!;
      if (x === 0) zeros++;
      if (x < lo0) lo0 = x;
      if (x > hi0) hi0 = x;
      if (x < ulo) ulo = x;
      if (x > uhi) uhi = x;
      const d = x - shift;
      s0 += d;
      q0 += d * d;
    }
    const m = -ulo > uhi ? -ulo : uhi;
    if (m > unitMax[unit]!) unitMax[unit] = m;
    unit++;
    end = Math.min(to, i + unitSize);
  }
  const s = s0 + s1;
  const q = q0 + q1;
  if (!Number.isFinite(s) || !Number.isFinite(q) || !Number.isFinite(shift)) return false;
  resetMoments(out);
  out.n = len;
  out.mean = shift + s / len;
  out.m2 = Math.max(0, q - (s * s) / len);
  out.sumSq = q + 2 * shift * s + len * shift * shift;
  out.min = lo0 < lo1 ? lo0 : lo1;
  out.max = hi0 > hi1 ? hi0 : hi1;
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

/** Histogram lanes: consecutive elements count into different lanes, so equal codes in a row (common for
 * weights near zero) do not serialize on one counter. */
export const HISTOGRAM_LANES = 4;

/**
 * Counts 16- or 8-bit codes into `HISTOGRAM_LANES` lanes of `codes` counters each; the statistics are then exact
 * sums over the (small) table of distinct values.
 */
export function countCodes(codes: Uint16Array | Uint8Array, histogram: Uint32Array): void {
  const lane = histogram.length / HISTOGRAM_LANES;
  const l2 = 2 * lane;
  const l3 = 3 * lane;
  const len = codes.length;
  let i = 0;
  for (; i + 3 < len; i += 4) {
    histogram[codes[i]!]!++;
    histogram[lane + codes[i + 1]!]!++;
    histogram[l2 + codes[i + 2]!]!++;
    histogram[l3 + codes[i + 3]!]!++;
  }
  for (; i < len; i++) histogram[codes[i]!]!++;
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

/** The same for 8/16-bit float codes: the largest magnitude code per unit (`mask` clears the sign bit). A loop of
 * its own rather than a shared one, to keep each loop monomorphic. */
export function unitMaxCode(a: Uint16Array | Uint8Array, first: number, unitSize: number, mask: number, out: Float64Array): void {
  let unit = Math.floor(first / unitSize);
  let i = 0;
  let end = Math.min(a.length, unitSize - (first % unitSize));
  while (i < a.length) {
    let m = 0;
    for (; i < end; i++) {
      const c = a[i]! & mask;
      if (c > m) m = c;
    }
    if (m > out[unit]!) out[unit] = m;
    unit++;
    end = Math.min(a.length, i + unitSize);
  }
}

/** Codes per lane of a 16-bit histogram. */
const LANE16 = 65536;

/**
 * `countCodes` for 16-bit codes. When the view is 4-byte aligned the codes are loaded two at a time through a
 * Uint32Array on the same memory (little-endian: the low half is the earlier code), which halves the loads.
 */
export function countCodes16(a: Uint16Array, histogram: Uint32Array): void {
  const len = a.length;
  if (a.byteOffset % 4 !== 0) {
    countCodes(a, histogram);
    return;
  }
  const w = new Uint32Array(a.buffer, a.byteOffset, len >>> 1);
  const words = w.length;
  let j = 0;
  for (; j + 1 < words; j += 2) {
    const p = w[j]!, q = w[j + 1]!;
    histogram[p & 0xffff]!++;
    histogram[LANE16 + (p >>> 16)]!++;
    histogram[2 * LANE16 + (q & 0xffff)]!++;
    histogram[3 * LANE16 + (q >>> 16)]!++;
  }
  if (j < words) {
    const p = w[j]!;
    histogram[p & 0xffff]!++;
    histogram[LANE16 + (p >>> 16)]!++;
  }
  if (len & 1) histogram[a[len - 1]!]!++;
}

/**
 * 16-bit float codes with output units, in one pass: counts each code into the histogram lanes (as
 * `countCodes16`) and keeps the largest magnitude code per unit (as `unitMaxCode`), so the chunk is read from
 * memory once. Two codes per 32-bit load when the view is aligned and units hold an even number of codes.
 */
export function countCodes16Units(a: Uint16Array, first: number, unitSize: number, mask: number, histogram: Uint32Array, out: Float64Array): void {
  const len = a.length;
  if (a.byteOffset % 4 !== 0 || unitSize % 2 !== 0 || first % 2 !== 0) {
    countCodes16UnitsScalar(a, first, unitSize, mask, histogram, out);
    return;
  }
  const w = new Uint32Array(a.buffer, a.byteOffset, len >>> 1);
  const words = w.length;
  const unitWords = unitSize / 2;
  const mask2 = (mask | (mask << 16)) >>> 0;
  let unit = Math.floor(first / unitSize);
  let j = 0;
  let end = Math.min(words, unitWords - ((first / 2) % unitWords));
  while (j < words) {
    // Running maxima compared one value at a time: rarely true, so the branches predict well (pairwise maxima
    // of random data would mispredict half the time).
    let m0 = 0, m1 = 0;
    for (; j + 1 < end; j += 2) {
      const p = w[j]!, q = w[j + 1]!;
      histogram[p & 0xffff]!++;
      histogram[LANE16 + (p >>> 16)]!++;
      histogram[2 * LANE16 + (q & 0xffff)]!++;
      histogram[3 * LANE16 + (q >>> 16)]!++;
      const pm = p & mask2, qm = q & mask2;
      const p0 = pm & 0xffff, p1 = pm >>> 16, q0 = qm & 0xffff, q1 = qm >>> 16;
      if (p0 > m0) m0 = p0;
      if (p1 > m1) m1 = p1;
      if (q0 > m0) m0 = q0;
      if (q1 > m1) m1 = q1;
    }
    if (j < end) {
      const p = w[j]!;
      histogram[p & 0xffff]!++;
      histogram[LANE16 + (p >>> 16)]!++;
      const pm = p & mask2;
      const p0 = pm & 0xffff, p1 = pm >>> 16;
      if (p0 > m0) m0 = p0;
      if (p1 > m1) m1 = p1;
      j++;
    }
    const m = m0 > m1 ? m0 : m1;
    if (m > out[unit]!) out[unit] = m;
    unit++;
    end = Math.min(words, j + unitWords);
  }
  // An odd last code belongs to the unit after the last whole word.
  if (len & 1) {
    const c = a[len - 1]!;
    histogram[c]!++;
    const u = Math.floor((first + len - 1) / unitSize);
    if ((c & mask) > out[u]!) out[u] = c & mask;
  }
}

/** `countCodes16Units` for unaligned views or odd unit sizes, one code at a time. */
function countCodes16UnitsScalar(a: Uint16Array, first: number, unitSize: number, mask: number, histogram: Uint32Array, out: Float64Array): void {
  const len = a.length;
  let unit = Math.floor(first / unitSize);
  let i = 0;
  let end = Math.min(len, unitSize - (first % unitSize));
  while (i < len) {
    let m = 0;
    for (; i + 3 < end; i += 4) {
      const c0 = a[i]!, c1 = a[i + 1]!, c2 = a[i + 2]!, c3 = a[i + 3]!;
      histogram[c0]!++;
      histogram[LANE16 + c1]!++;
      histogram[2 * LANE16 + c2]!++;
      histogram[3 * LANE16 + c3]!++;
      const m0 = c0 & mask, m1 = c1 & mask, m2 = c2 & mask, m3 = c3 & mask;
      if (m0 > m) m = m0;
      if (m1 > m) m = m1;
      if (m2 > m) m = m2;
      if (m3 > m) m = m3;
    }
    for (; i < end; i++) {
      const c = a[i]!;
      histogram[c]!++;
      const mc = c & mask;
      if (mc > m) m = mc;
    }
    if (m > out[unit]!) out[unit] = m;
    unit++;
    end = Math.min(len, i + unitSize);
  }
}
