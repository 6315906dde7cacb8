import { describe, expect, it } from "vitest";
import { FIRST_READ_CHARS, proseOf, proseSample, readLanguage } from "../../../../llm/grounding/language.js";
import { MIXED, randomTexts } from "./random-text.js";

/** The prose as proseOf read it with patterns before it read characters: the same words must come out. */
const byPatterns = (text: string) =>
  text
    .replace(/\[[^\]]{0,12}\]/gu, " ")
    .split(/\s+/u)
    .filter((word) => word && !/[\d_/\\=<>{}@#]|\.[\p{L}\d]|\p{Ll}\p{Lu}/u.test(word))
    .join(" ");

const fr = { code: "fr", name: "French" };

describe("readLanguage", () => {
  it("reads the language of model prose with franc, ids and numbers left out", () => {
    expect(proseOf("[fr] training.overfitting: la perte 0,41 monte (val/loss)")).toBe("la perte monte");
    expect(readLanguage(["La perte de validation augmente après l'époque 12, ce qui indique un surapprentissage."], fr)).toEqual({ detected: "fr", matches: true });
    expect(readLanguage(["Validation loss rises after epoch 12 while the training loss keeps falling: the model overfits."], fr)).toEqual({ detected: "en", matches: false });
    expect(readLanguage(["La pérdida de validación aumenta después de la época 12, lo que indica sobreajuste."], fr)).toMatchObject({ detected: "es", matches: false });
  });

  it("does not judge too little prose, nor a language franc has no profile for", () => {
    expect(readLanguage(["[fr] training.overfitting 0.41"], fr)).toEqual({ detected: null, matches: null });
    expect(readLanguage(["Some long English text about validation loss and what it means for the run."], { code: "tlh", name: "Klingon" })).toEqual({ detected: null, matches: null });
  });

  it("samples a slice of each text in turn, up to the characters asked", () => {
    const texts = ["alpha ".repeat(40), "beta ".repeat(40), "gamma ".repeat(40), "delta ".repeat(40), "epsilon ".repeat(40)];
    const first = proseSample(texts, FIRST_READ_CHARS);
    for (const word of ["alpha", "beta", "gamma", "delta"]) expect(first).toContain(word);
    // The sample is full once the first four texts had their slice: the fifth is not read.
    expect(first).not.toContain("epsilon");
    expect(first.length).toBeLessThanOrEqual(FIRST_READ_CHARS + texts.length);
    expect(proseSample(texts).length).toBeGreaterThan(first.length);
  });

  it("reads prose as the replace, split and pattern it replaces did, on random texts", () => {
    for (const text of randomTexts(MIXED, 20_000, 50)) expect(proseOf(text), JSON.stringify(text)).toBe(byPatterns(text));
    const tags = ["[fr] a", "[", "]", "[abcdefghijkl]x", "[abcdefghijklm]x", "[𝑥𝑥𝑥𝑥𝑥𝑥𝑥𝑥𝑥𝑥𝑥𝑥]y", "[[ab] c", "a.b", "a.𝑥", "aB", "a𝐀", "é.7"];
    for (const text of randomTexts(tags, 5_000, 6, 7)) expect(proseOf(text), JSON.stringify(text)).toBe(byPatterns(text));
  });

  it("samples what cleaning every head whole gave, cleaning only as far as the slices need", () => {
    /** The sample as built when each text's head was cleaned whole before its first slice was taken. */
    const wholeHeads = (texts: string[], chars: number) => {
      const slice = Math.ceil(chars / 4);
      const head = Math.max(slice, Math.ceil(chars / Math.max(1, texts.length))) * 3;
      const proses = [...new Set(texts)].map((t) => proseOf(t.slice(0, head)));
      const parts: string[] = [];
      let used = 0;
      const taken: string[] = [];
      for (const p of proses) {
        if (used >= chars) break;
        if (!p) continue;
        taken.push(p);
        parts.push(p.slice(0, slice));
        used += parts[parts.length - 1]!.length;
      }
      for (let offset = slice; used < chars && taken.some((p) => p.length > offset); offset += slice) {
        for (const p of taken) {
          if (used >= chars || p.length <= offset) continue;
          parts.push(p.slice(offset, offset + slice));
          used += parts[parts.length - 1]!.length;
        }
      }
      return parts.join(" ");
    };
    const words = ["la ", "perte ", "val/loss ", "0,41 ", "[fr] ", "monte ", "après ", "l'époque ", "training.x ", "\n", "é", "𝑥 "];
    const texts = randomTexts(words, 6_000, 60);
    for (let k = 0; k + 6 <= texts.length; k += 6) {
      const group = texts.slice(k, k + 1 + (k % 6));
      for (const chars of [FIRST_READ_CHARS, 240]) expect(proseSample(group, chars), JSON.stringify(group)).toBe(wholeHeads(group, chars));
    }
  });
});
