import { classOf, LETTER, NUMERIC } from "./char-classes.js";
import type { WordShapes } from "./word-shapes.js";

/** Word characters by code for ASCII ([A-Za-z0-9_]); other characters are letters or numbers by their class. */
const ASCII_WORD = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") ASCII_WORD[c.charCodeAt(0)] = 1;

/** [\p{L}\p{N}_]: accented letters, common in the prose before a number, read from the class table, not a pattern. */
const isWordChar = (code: number): boolean => (code < 128 ? ASCII_WORD[code] === 1 : (classOf(code) & (LETTER | NUMERIC)) !== 0);

/**
 * The characters whose lower case is not themselves letter by letter: İ gives two characters (the only one, over
 * every code point), Σ a final ς by context.
 */
const isContextualLower = (code: number) => code === 0x130 || code === 0x3a3;

/**
 * The words (runs of letters, digits and "_", lower case) of `text` within [from, to), nearest `to` first, at most
 * `max` of them, each handed to `pick` until it returns a result: the same words as lower-casing that slice and
 * matching /[\p{L}\p{N}_]+/gu over it, read backwards in place, without the copy, the lower-casing of the whole
 * slice or the words before the one picked (a sentence's numbers each look back for the field they are stated
 * for, usually named two or three words before). Null when none is picked; undefined when a word met first has a
 * lower case that depends on its context or changes its length (İ gives two characters, Σ a final ς by
 * context): the caller reads the slice as before. With `shapes`, a word whose shape is none of theirs is passed
 * over unread: `pick` must return null for every word of another shape.
 */
export function pickWordBefore<C>(
  text: string,
  from: number,
  to: number,
  max: number,
  pick: (word: string, context: C) => string | null,
  context: C,
  shapes: WordShapes | null = null,
): string | null | undefined {
  let words = 0;
  let end = -1;
  // Whether the word read holds İ or Σ: every other word's lower case is letter by letter.
  let contextual = false;
  for (let i = to - 1; i >= from - 1 && words < max; i--) {
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
    if (inWord) {
      if (end < 0) end = i + 1;
      if (isContextualLower(code)) contextual = true;
    } else if (end >= 0) {
      if (contextual) return undefined;
      if (shapes === null || shapes.mayHold(text.charCodeAt(i + 1), end - i - 1)) {
        const picked = pick(text.slice(i + 1, end).toLowerCase(), context);
        if (picked !== null) return picked;
      }
      words++;
      end = -1;
    }
    i -= width - 1;
  }
  return null;
}

/**
 * The last `max` words of `text` within [from, to), in order, as pickWordBefore reads them; null when one of
 * them gives way to the slice.
 */
export function lastWordsBefore(text: string, from: number, to: number, max: number): string[] | null {
  const words: string[] = [];
  const read = pickWordBefore(text, from, to, max, collect, words);
  return read === undefined ? null : words.reverse();
}

const collect = (word: string, words: string[]): null => {
  words.push(word);
  return null;
};
