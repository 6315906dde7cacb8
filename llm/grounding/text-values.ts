import { evidenceValues } from "./numbers.js";

/** Texts whose values are kept: far more than the texts with digits of one analysis's prompts (about 100-200). */
const MAX_TEXTS = 4096;

/**
 * The values of evidence texts already read, by text. The prompts of one analysis show the same texts again (a
 * finding's description and evidence in its agent's review, the summary and the advice; rule ids; the digest's
 * notes): about half of their texts with digits were read more than once, each a pattern run and a match per
 * number. Values are a pure function of the text, so an entry never goes stale; past MAX_TEXTS the memo starts
 * over.
 */
export class TextValues {
  private readonly known = new Map<string, number[]>();

  /** Adds the values of `text` (evidenceValues) to `out`, reading each text once. */
  addValues(text: string, out: number[]): void {
    let values = this.known.get(text);
    if (values === undefined) {
      values = evidenceValues(text);
      if (this.known.size >= MAX_TEXTS) this.known.clear();
      this.known.set(text, values);
    }
    for (const v of values) out.push(v);
  }
}
