import { classOf, LETTER, NUMERIC } from "./char-classes.js";

/** Word characters by code for ASCII ([A-Za-z0-9_]); other characters are letters or numbers by their class. */
const ASCII_WORD = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") ASCII_WORD[c.charCodeAt(0)] = 1;

/** [\p{L}\p{N}_]: accented letters, common in the prose before a number, read from the class table, not a pattern. */
const isWordChar = (code: number): boolean => (code < 128 ? ASCII_WORD[code] === 1 : (classOf(code) & (LETTER | NUMERIC)) !== 0);

/** A word whose lower case is not itself letter by letter (İ gives two characters, Σ a final ς by context). */
const CONTEXTUAL_LOWER = /\u03a3/u;

/**
 * The last `max` words (runs of letters, digits and "_", lower case, in order) of `text` within [from, to), read
 * backwards from `to`: the same words as lower-casing that slice and matching /[\p{L}\p{N}_]+/gu over it, without
 * the copy, the lower-casing of the whole slice or the words before the last `max` (a sentence's numbers each
 * look back for the field they are stated for; most of those windows hold 10-15 words). Null when a word's lower
 * case depends on its context or changes its length: the caller reads the slice as before.
 */
export function lastWordsBefore(text: string, from: number, to: number, max: number): string[] | null {
  const words: string[] = [];
  let end = -1;
  for (let i = to - 1; i >= from - 1 && words.length < max; i--) {
    let code = i >= from ? text.charCodeAt(i) : -1;
    let width = 1;
    // A low surrogate inside the range and its high surrogate make one code point (an astral letter).
    if (code >= 0xdc00 && code <= 0xdfff && i - 1 >= from) {
      const high = text.charCodeAt(i - 1);
      if (high >= 0xd800 && high <= 0xdbff) {
        code = ((high - 0xd800) << 10) + (code - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    const inWord = code >= 0 && isWordChar(code);
    if (inWord && end < 0) end = i + 1;
    if (!inWord && end >= 0) {
      const word = text.slice(i + 1, end);
      const lower = word.toLowerCase();
      if (lower.length !== word.length || CONTEXTUAL_LOWER.test(word)) return null;
      words.push(lower);
      end = -1;
    }
    i -= width - 1;
  }
  return words.reverse();
}
