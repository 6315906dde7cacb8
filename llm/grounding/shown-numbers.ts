import type { SlotTexts } from "./numbers.js";
import { TextValues } from "./text-values.js";

/**
 * The numbers a prompt shows, in the order the evidence walk meets them: a JSON number as it is, a text with
 * digits as one slot (NaN, which no check matches) whose values are read the first time a check finds no number
 * of its set and the set holds that slot. Most texts are never read: a stated number is mostly a JSON number of
 * the field it names, and reading every text's values was two fifths of the evidence walk.
 */
export class ShownNumbers implements SlotTexts {
  readonly values: number[] = [];
  /** The text of each slot, by its index in `values`. */
  private readonly texts = new Map<number, string>();
  /** The values of the slots read so far. */
  private readonly read = new Map<number, number[]>();

  /** `memo`, shared by the prompts of an analysis, reads a text they show again once. */
  constructor(private readonly memo: TextValues = new TextValues()) {}

  addText(text: string): void {
    this.texts.set(this.values.length, text);
    this.values.push(Number.NaN);
  }

  valuesAt(slot: number): readonly number[] | undefined {
    const text = this.texts.get(slot);
    if (text === undefined) return undefined;
    let values = this.read.get(slot);
    if (values === undefined) {
      values = [];
      this.memo.addValues(text, values);
      this.read.set(slot, values);
    }
    return values;
  }
}
