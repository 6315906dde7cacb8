import { classOf, codePointAt, isDigit, isSpace, LETTER, NUMERIC } from "./char-classes.js";

/**
 * Where a written number starts and ends in a sentence, read by character code as NUMBER (numbers.ts) reads it:
 * its look-behinds, its digit group, whether an exponent may follow, and what after it makes it part of a name.
 */

/** The code point that ends at `end` (a surrogate pair read whole), as a look-behind reads it; -1 at the start. */
function codePointBefore(text: string, end: number): number {
  if (end <= 0) return -1;
  const low = text.charCodeAt(end - 1);
  if (low >= 0xdc00 && low <= 0xdfff && end >= 2) {
    const high = text.charCodeAt(end - 2);
    if (high >= 0xd800 && high <= 0xdbff) return ((high - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
  }
  return low;
}

const isLetter = (codePoint: number) => codePoint >= 0 && (classOf(codePoint) & LETTER) !== 0;

/** NUMBER's look-behinds: not after a letter, digit (\p{N}), "_" or ".", nor after "<letter or _>-". */
export function mayStartNumber(text: string, i: number): boolean {
  const before = codePointBefore(text, i);
  if (before < 0) return true;
  if (before === 95 || before === 46 || (classOf(before) & (LETTER | NUMERIC)) !== 0) return false;
  if (before !== 45) return true;
  const hyphenAfter = codePointBefore(text, i - 1);
  return !(hyphenAfter === 95 || isLetter(hyphenAfter));
}

/** The end of the run of ASCII digits from `i`. */
export function digitsEnd(text: string, i: number): number {
  while (isDigit(text.charCodeAt(i))) i++;
  return i;
}

/** Marks that group three digits in NUMBER: space, no-break spaces, apostrophes. */
const isGroupSpace = (c: number) => c === 32 || c === 0xa0 || c === 0x202f || c === 39 || c === 0x2019;

/** Where NUMBER's digit group from `i` ends: digits, then [.,] and digits, or a group mark and exactly 3 digits. */
export function digitGroupEnd(text: string, from: number): number {
  let i = digitsEnd(text, from);
  for (;;) {
    const c = text.charCodeAt(i);
    if ((c === 46 || c === 44) && isDigit(text.charCodeAt(i + 1))) i = digitsEnd(text, i + 1);
    else if (isGroupSpace(c) && digitsEnd(text, i + 1) === i + 4) i += 4;
    else return i;
  }
}

/** A sign of multiplication before 10^ in NUMBER: ×, x, * or ·. */
const isTimes = (c: number) => c === 0xd7 || c === 120 || c === 42 || c === 0xb7;

/** Whether an exponent may follow a digit group ending at `end`: e or E, or a sign of multiplication after at most one space. */
export function mayGoOn(text: string, end: number): boolean {
  const c = text.charCodeAt(end);
  return c === 101 || c === 69 || isTimes(c) || (isSpace(c) && isTimes(text.charCodeAt(end + 1)));
}

/** Whether NAME_PART_AFTER matches within the 24 characters after a number ending at `end`. */
export function namePartAfter(text: string, end: number): boolean {
  const limit = Math.min(text.length, end + AFTER_CHARS);
  const first = text.charCodeAt(end);
  if ((first === 46 || first === 45) && end + 1 < limit) return isLetter(codePointIn(text, end + 1, limit));
  let i = end;
  for (; i < limit; ) {
    const c = codePointIn(text, i, limit);
    if (c !== 95 && !isLetter(c)) break;
    i += c >= 0x10000 ? 2 : 1;
  }
  return i < limit && isDigit(text.charCodeAt(i));
}

/** The code point at `i` as a slice ending at `limit` holds it (a pair cut by the end is a lone surrogate). */
function codePointIn(text: string, i: number, limit: number): number {
  return i + 1 < limit ? codePointAt(text, i) : text.charCodeAt(i);
}

/** How far after a number its suffix, enumeration mark or name part is looked for. */
export const AFTER_CHARS = 24;
