import { describe, expect, it } from "vitest";
import { clearlyIn, hasOtherScript, letterRuns } from "../../../../llm/grounding/function-words.js";
import { MIXED, randomTexts } from "./random-text.js";

/** The words and script test as clearlyIn made them with patterns before it read characters. */
const byPatterns = (prose: string) => ({
  otherScript: /(?![\p{Script=Latin}])\p{L}/u.test(prose),
  words: prose.toLowerCase().match(/\p{L}+/gu) ?? [],
});

describe("clearlyIn", () => {
  it("confirms prose full of the asked language's function words", () => {
    expect(clearlyIn("La perte de validation augmente après l'époque 12 et le modèle est en surapprentissage, ce qui est attendu pour les données.", "fra")).toBe(true);
    expect(clearlyIn("Validation loss rises after epoch 12 while the training loss keeps falling, which is what overfitting looks like.", "eng")).toBe(true);
    expect(clearlyIn("La pérdida de validación aumenta después de la época 12 y el modelo está sobreajustado, lo que es esperable.", "spa")).toBe(true);
  });

  it("leaves to franc prose in another language, mixed prose, other scripts and too few words", () => {
    const english = "Validation loss rises after epoch 12 while the training loss keeps falling, which is what overfitting looks like.";
    expect(clearlyIn(english, "fra")).toBe(false);
    expect(clearlyIn("La pérdida de validación aumenta después de la época 12 y el modelo está sobreajustado.", "fra")).toBe(false);
    // Japanese with English sentences in it: the English words do not speak for the Japanese prose.
    expect(clearlyIn(`この成果物について証拠が示していることを簡潔に述べます。 ${english}`, "eng")).toBe(false);
    // Swedish with a little English: too small a share of English function words.
    expect(clearlyIn("Valideringsförlusten ökar efter epok tolv medan träningsförlusten fortsätter att sjunka, vilket tyder på överanpassning av modellen i the end of the run.", "eng")).toBe(false);
    // Three function words are too few to tell.
    expect(clearlyIn("the loss and the run", "eng")).toBe(false);
    expect(clearlyIn("Validation loss rises after epoch 12 while the training loss keeps falling.", "tlh")).toBe(false);
  });

  it("reads the words and the script as the patterns it replaces did, on random texts", () => {
    const words = ["the ", "and ", "is ", "les ", "est ", "el ", "der ", "İs ", "ünd ", "日 ", "σ ", "𝑥", "a", "7 ", ". "];
    for (const text of [...randomTexts(MIXED, 10_000, 40), ...randomTexts(words, 5_000, 30, 3)]) {
      const expected = byPatterns(text);
      const read: string[] = [];
      const lower = text.toLowerCase();
      letterRuns(lower, (start, end) => read.push(lower.slice(start, end)));
      expect({ otherScript: hasOtherScript(text), words: read }, JSON.stringify(text)).toEqual(expected);
    }
  });
});
