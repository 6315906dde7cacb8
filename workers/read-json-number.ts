import { RefusedJson } from "./refused-json.js";

/**
 * Bytes of JSON's grammar this module compares, declared here rather than imported: V8 folds a module's own `const`
 * into the code, but reads an imported one from its module cell on every comparison (~45 % of the decode's time,
 * measured on the 10^6 x 6 history body).
 */
const PLUS = 0x2b;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const UPPER_E = 0x45;
const LOWER_E = 0x65;

/** 10^0 … 10^22, every one an exact double (read from their literals: `**` need not be exact). */
const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));
/** Most significant digits whose integer is exact in a double and leaves the fast path exact (Clinger). */
const FAST_DIGITS = 15;

/**
 * The JSON number at `start` in `b` (its grammar exactly: no leading zeros, digits after a dot and an e), written to
 * out[at]; returns the offset just past it. Exact: up to 15 significant digits with a decimal exponent within ±22 the
 * digits and the power of ten are both exact doubles, so one division or multiplication rounds correctly (Clinger's
 * fast path); any other number is read by Number() from its text, as JSON.parse would. Written, not returned: a
 * double returned from a call that is not inlined is boxed on the heap, millions of times.
 */
export function readJsonNumber(b: Buffer, start: number, out: Float64Array, at: number): number {
  let p = start;
  const negative = b[p] === MINUS;
  if (negative) p++;
  let mantissa = 0;
  let digits = 0;
  let exponent = 0;
  let c = b[p]!;
  if (c === ZERO) p++;
  else if (c > ZERO && c <= NINE) {
    do {
      mantissa = mantissa * 10 + (c - ZERO);
      digits++;
      c = b[++p]!;
    } while (c >= ZERO && c <= NINE);
  } else throw new RefusedJson();
  if (b[p] === DOT) {
    c = b[++p]!;
    if (!(c >= ZERO && c <= NINE)) throw new RefusedJson();
    // Zeros before the first significant digit only move the exponent.
    if (digits === 0) {
      while (c === ZERO) {
        exponent--;
        c = b[++p]!;
      }
    }
    while (c >= ZERO && c <= NINE) {
      mantissa = mantissa * 10 + (c - ZERO);
      digits++;
      exponent--;
      c = b[++p]!;
    }
  }
  c = b[p]!;
  if (c === LOWER_E || c === UPPER_E) {
    c = b[++p]!;
    const negativeExponent = c === MINUS;
    if (negativeExponent || c === PLUS) c = b[++p]!;
    if (!(c >= ZERO && c <= NINE)) throw new RefusedJson();
    let e = 0;
    do {
      if (e < 1e6) e = e * 10 + (c - ZERO);
      c = b[++p]!;
    } while (c >= ZERO && c <= NINE);
    exponent += negativeExponent ? -e : e;
  }
  if (digits <= FAST_DIGITS && exponent >= -22 && exponent <= 22) {
    const value = exponent < 0 ? mantissa / POW10[-exponent]! : mantissa * POW10[exponent]!;
    out[at] = negative ? -value : value;
  } else out[at] = Number(b.toString("latin1", start, p));
  return p;
}
