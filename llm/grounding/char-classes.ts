/**
 * The Unicode classes the grounding pass asks of one character at a time, as bits: answered by the same
 * regular expressions the pass used to run over whole texts, once per code point of the Basic Multilingual Plane
 * (then kept in a table), so a scan by character codes reads a class with one array read, and agrees with those
 * expressions by construction.
 */
export const LETTER = 1; // \p{L}
export const LOWER = 2; // \p{Ll}
export const UPPER = 4; // \p{Lu}
export const LATIN = 8; // \p{Script=Latin}
export const NUMERIC = 16; // \p{N}
const KNOWN = 128;

const TESTS: ReadonlyArray<[RegExp, number]> = [
  [/^\p{L}$/u, LETTER],
  [/^\p{Ll}$/u, LOWER],
  [/^\p{Lu}$/u, UPPER],
  [/^\p{Script=Latin}$/u, LATIN],
  [/^\p{N}$/u, NUMERIC],
];

function compute(codePoint: number): number {
  const char = String.fromCodePoint(codePoint);
  let bits = 0;
  for (const [test, bit] of TESTS) if (test.test(char)) bits |= bit;
  return bits;
}

const BMP = new Uint8Array(0x10000);

/** The class bits of a code point (a lone surrogate is a code point of its own, of no class). */
export function classOf(codePoint: number): number {
  if (codePoint >= 0x10000) return compute(codePoint);
  const known = BMP[codePoint]!;
  if (known !== 0) return known & ~KNOWN;
  const bits = compute(codePoint);
  BMP[codePoint] = bits | KNOWN;
  return bits;
}

/** The code point at `i` of `text`: a surrogate pair read whole, as a regular expression with the u flag reads it. */
export function codePointAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const low = text.charCodeAt(i + 1);
    if (low >= 0xdc00 && low <= 0xdfff) return ((c - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
  }
  return c;
}

/** How many UTF-16 units a code point takes. */
export const widthOf = (codePoint: number): number => (codePoint >= 0x10000 ? 2 : 1);

/** White space as the \s of a regular expression: tabs and line ends, spaces, no-break and typographic spaces. */
export function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** An ASCII digit: the \d of a regular expression, with or without the u flag. */
export const isDigit = (c: number): boolean => c >= 48 && c <= 57;
