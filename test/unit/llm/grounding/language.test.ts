import { describe, expect, it } from "vitest";
import { FIRST_READ_CHARS, proseOf, proseSample, readLanguage } from "../../../../llm/grounding/language.js";

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
});
