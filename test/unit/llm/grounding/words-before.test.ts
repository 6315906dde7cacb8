import { describe, expect, it } from "vitest";
import { lastWordsBefore } from "../../../../llm/grounding/words-before.js";

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
