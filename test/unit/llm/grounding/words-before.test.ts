import { describe, expect, it } from "vitest";
import { WordShapes } from "../../../../llm/grounding/word-shapes.js";
import { lastWordsBefore, pickWordBefore } from "../../../../llm/grounding/words-before.js";
import { randomTexts } from "./random-text.js";

/** The words as namedField read them before: the slice lower-cased, every word matched, the last ones kept. */
const bySlice = (text: string, from: number, to: number, max: number) =>
  text.slice(from, to).toLowerCase().match(/[\p{L}\p{N}_]+/gu)?.slice(-max) ?? [];

describe("lastWordsBefore", () => {
  it("reads the last words before a position, lower case, in order", () => {
    const text = "Pour val/loss, la valeur de Min s'établit à 0,5524";
    expect(lastWordsBefore(text, 0, text.indexOf("0,55"), 5)).toEqual(["de", "min", "s", "établit", "à"]);
  });

  it("cuts a word at the window's start as a slice does", () => {
    expect(lastWordsBefore("alpha beta_loss 3", 8, 16, 5)).toEqual(["ta_loss"]);
  });

  it("gives way (null) to the slice where lower case depends on context or changes the length", () => {
    expect(lastWordsBefore("İstanbul 3", 0, 9, 5)).toBeNull();
    expect(lastWordsBefore("ΟΔΟΣ 3", 0, 5, 5)).toBeNull();
  });

  it("picks the nearest word the caller takes, as the slice's words read from the end would, or gives way", () => {
    const alphabet = ["a", "b", "Z", "_", "7", " ", ".", "/", "é", "σ", "Σ", "İ", "日", "𝐀", "-", "’"];
    const takes = (word: string) => (word.length === 2 || word.startsWith("b") ? `<${word}>` : null);
    for (const [k, text] of randomTexts(alphabet, 20_000, 40).entries()) {
      const to = k % (text.length + 1);
      const from = Math.max(0, to - 1 - (k % 17));
      const max = 1 + (k % 6);
      const picked = pickWordBefore(text, from, to, max, takes, null);
      const nearest = bySlice(text, from, to, max).reverse().map(takes).find((w) => w !== null) ?? null;
      if (picked !== undefined) expect(picked, JSON.stringify({ text, from, to, max })).toBe(nearest);
      else expect(lastWordsBefore(text, from, to, max)).toBeNull();
    }
  });

  it("passes over only words of no shape of the set it is given, picking what it picks without them", () => {
    const alphabet = ["a", "b", "Z", "B", "_", "7", " ", ".", "é", "É", "σ", "Σ", "İ", "日", "𝐀", "-", "ß", "Ω"];
    const wanted = new Set(["ab", "b", "éa", "σz", "ω", "日a", "𝐀b", "a_7", "ß"]);
    const takes = (word: string) => (wanted.has(word) ? `<${word}>` : null);
    const shapes = new WordShapes(wanted);
    let picked = 0;
    for (const [k, text] of randomTexts(alphabet, 20_000, 30, 5).entries()) {
      const to = k % (text.length + 1);
      const from = Math.max(0, to - 1 - (k % 23));
      const max = 1 + (k % 6);
      const withShapes = pickWordBefore(text, from, to, max, takes, null, shapes);
      expect(withShapes, JSON.stringify({ text, from, to, max })).toBe(pickWordBefore(text, from, to, max, takes, null));
      if (withShapes) picked++;
    }
    // The texts hold the words asked for often enough that the comparison is not one of nulls only.
    expect(picked).toBeGreaterThan(1_000);
  });

  it("agrees with the slice on random texts of ASCII, accented, Greek, CJK and astral letters", () => {
    const alphabet = ["a", "Z", "_", "7", " ", ".", "/", "'", "é", "É", "ß", "ñ", "σ", "Ω", "日", "本", "𝐀", "𝑥", "\ud835", "\udc00", "-", "’", "Ⅳ", "\u00a0"];
    let seed = 20;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let k = 0; k < 20_000; k++) {
      const length = Math.floor(random() * 60);
      let text = "";
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      const to = Math.floor(random() * (text.length + 1));
      const from = Math.floor(random() * (to + 1));
      const max = 1 + Math.floor(random() * 6);
      const words = lastWordsBefore(text, from, to, max);
      if (words !== null) expect(words, JSON.stringify({ text, from, to, max })).toEqual(bySlice(text, from, to, max));
    }
  });
});
