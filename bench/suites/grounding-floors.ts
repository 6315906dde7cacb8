import type { Language } from "../../artifacts/language.js";
import { clearlyIn } from "../../llm/grounding/function-words.js";
import { francCodeOf, proseSample, readLanguage } from "../../llm/grounding/language.js";
import { languageTextsOf, type RecordedCall } from "../../test/support/recorded-answer.js";

/**
 * The floors of the grounding pass over one analysis's recorded answers: loops that do the least any pass over
 * the same prompts and answers must do, and none of the checks. The pass's goal is set beside them: where the
 * floors alone take a large share of the budget, the checks themselves (items, fields, positions, ids, severities,
 * readings of every number) must fit in what is left.
 */

const DIGIT = /\d/;

/**
 * Every value of a prompt visited once, each number kept in a list with the field it sits under (a range per key
 * that holds numbers, in a list per key) and each text asked whether it holds a digit: what checking "every
 * number the model states is a value of the field it names, or of a text shown" needs before any check. The
 * count is returned so the loop cannot be dropped as dead code.
 */
export function visitEvidence(shown: unknown): number {
  const numbers: number[] = [];
  const byKey = new Map<string, number[]>();
  const visit = (value: unknown): void => {
    if (typeof value === "number") numbers.push(value);
    else if (typeof value === "string") {
      if (DIGIT.test(value)) numbers.push(Number.NaN);
    } else if (Array.isArray(value)) for (const item of value) visit(item);
    else if (value !== null && typeof value === "object") {
      const o = value as Record<string, unknown>;
      for (const key in o) {
        const start = numbers.length;
        visit(o[key]);
        if (numbers.length === start) continue;
        let ranges = byKey.get(key);
        if (ranges === undefined) byKey.set(key, (ranges = []));
        ranges.push(start, numbers.length);
      }
    }
  };
  visit(shown);
  return numbers.length + byKey.size;
}

/** Every character of every text read once, by code: the least a check of each sentence's numbers reads. */
export function readEveryCharacter(texts: readonly string[]): number {
  let digits = 0;
  for (const text of texts) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 48 && c <= 57) digits++;
    }
  }
  return digits;
}

/** One analysis's recorded answers, ready for the floors: their texts, and those whose language franc must read. */
export interface FloorInput {
  calls: readonly RecordedCall[];
  texts: string[][];
  /** The answers whose function words leave the language open: franc (the detector the issue names) reads them. */
  leftToFranc: string[][];
}

export function floorInput(calls: readonly RecordedCall[], language: Language): FloorInput {
  const texts = calls.map(languageTextsOf);
  const expected = francCodeOf(language);
  const leftToFranc = expected === undefined ? [] : texts.filter((t) => !clearlyIn(proseSample(t), expected));
  return { calls, texts, leftToFranc };
}

/** The three floors of one analysis, each a function to time. */
export function floorsOf(input: FloorInput, language: Language): Array<[part: string, run: () => number]> {
  return [
    ["every prompt's values visited, numbers kept by field", () => input.calls.reduce((n, call) => n + visitEvidence(call.shown), 0)],
    ["franc on the answers function words leave open", () => input.leftToFranc.reduce((n, texts) => n + (readLanguage(texts, language).matches ? 1 : 0), 0)],
    ["every character of every answer read once", () => input.texts.reduce((n, texts) => n + readEveryCharacter(texts), 0)],
  ];
}
