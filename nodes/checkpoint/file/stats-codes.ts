/**
 * Code-histogram kernels for 8- and 16-bit float tensors: each element's code is counted, and the statistics are
 * exact sums over the table of distinct values (`histogramMoments` in stats-kernels.ts). Kept apart from the
 * float kernels so each loop stays small and monomorphic.
 */
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
