import { describe, expect, it } from "vitest";
import { floorInput, floorsOf, readEveryCharacter, visitEvidence } from "../../../bench/suites/grounding-floors.js";
import { SCHEMA_NAMES } from "../../../llm/schemas.js";

const FRENCH = { code: "fr", name: "French" };

const summary = (text: string) => ({ schema: SCHEMA_NAMES.summary, shown: {}, answer: { summary: text } });

describe("grounding floors", () => {
  it("visits every value of a prompt: numbers, texts with digits, and one list per key holding numbers", () => {
    // Numbers: 0.5, 3, 4, 7, 1 and the text with a digit; keys holding numbers: loss, points, series, n, note.
    const shown = { series: [{ loss: 0.5, points: [3, 4] }, { loss: 7, label: "no digit" }], n: 1, note: "rows 12" };
    expect(visitEvidence(shown)).toBe(6 + 5);
    expect(visitEvidence({ title: "none", items: [] })).toBe(0);
  });

  it("reads every character of every text", () => {
    expect(readEveryCharacter(["a 12 b", "3.5 %", ""])).toBe(4);
  });

  it("leaves to franc only the answers whose function words do not settle the language", () => {
    const settled = summary("Les pertes de validation sont plus hautes que celles de l'entraînement et les écarts ne cessent pas de croître dans les dernières époques, avec une pente qui est nette.");
    const open = summary("Valeurs: rows 12, train 0.5, val 0.7; regard second, artefact vérifié.");
    const input = floorInput([settled, open], FRENCH);
    expect(input.texts).toHaveLength(2);
    expect(input.leftToFranc).toEqual([input.texts[1]]);
    // A language franc has no profile for is never read: nothing is left to franc.
    expect(floorInput([settled, open], { code: "xx", name: "Unknown" }).leftToFranc).toEqual([]);
  });

  it("names three parts, each a loop that runs", () => {
    const input = floorInput([{ ...summary("La valeur est 3."), shown: { a: 1, b: "x 2" } }], FRENCH);
    const parts = floorsOf(input, FRENCH);
    expect(parts.map(([part]) => part)).toHaveLength(3);
    const [evidence, , characters] = parts.map(([, run]) => run());
    expect(evidence).toBe(2 + 2);
    expect(characters).toBe(1);
  });
});
