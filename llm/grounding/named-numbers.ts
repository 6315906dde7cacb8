import { NumberSpans } from "./numbers.js";

/** What separates the names of a sentence: white space, brackets, quotes and list punctuation. */
const TOKEN_END = /[ \t\n\r\u00a0\u202f,;()[\]{}"'«»“”‘’]/u;
/** Marks after the last word of a sentence or clause, which are not part of the name before them. */
const CLOSING = /[.:!?…]+$/u;

/**
 * Numbers by the field names they sit under and by the items (anchors) that hold them, kept as [start, end)
 * ranges of the evidence's list of numbers (a field's values are the ones added while it was open), and the
 * [position, value] pairs of that list.
 */
export class NamedNumbers {
  /** Per field name (lower case), and per anchor name (as written), [start, end) pairs into `numbers`. */
  private readonly ranges = new Map<string, number[]>();
  private readonly anchors = new Map<string, number[]>();
  /** Where each [position, value] pair starts in `numbers`, in order. */
  private readonly pairStarts: number[] = [];

  constructor(private readonly numbers: readonly number[]) {}

  /** Adds [start, end) to the values of the field `key` (as written; fields are named in lower case). */
  addRange(key: string, start: number, end: number): void {
    if (start < end) append(this.ranges, key.toLowerCase(), start, end);
  }

  addAnchor(name: string, start: number, end: number): void {
    if (start < end) append(this.anchors, name, start, end);
  }

  addPair(start: number): void {
    this.pairStarts.push(start);
  }

  /** In how many places of the evidence a field (lower case) is given: 0 when it is not a field name. */
  places(name: string): number {
    return (this.ranges.get(name)?.length ?? 0) / 2;
  }

  /**
   * The items of the evidence a text names, as written (the prompt asks the model to keep ids and names exactly):
   * its tokens, a closing point, colon or exclamation mark left out, and the names of several words it holds.
   * Items without a number are not anchors, so naming one binds nothing.
   */
  anchorsIn(text: string): string[] {
    const tokens = text.split(TOKEN_END).map((token) => token.replace(CLOSING, ""));
    const named = [...new Set(tokens.filter((token) => this.anchors.has(token)))];
    const phrases = [...this.anchors.keys()].filter((name) => /\s/u.test(name) && text.includes(name));
    return [...named, ...phrases];
  }

  /** The numbers of a field; with anchors, only those inside the items they name (undefined when none holds the field). */
  get(name: string, anchors?: readonly string[]): NumberSpans | undefined {
    const ranges = this.ranges.get(name);
    if (!ranges) return undefined;
    if (!anchors?.length) return new NumberSpans(this.numbers, ranges);
    const spans = this.overlap(ranges, anchors);
    return spans.length ? new NumberSpans(this.numbers, spans) : undefined;
  }

  /** Where a field's ranges and the anchored items' ranges overlap, as [start, end) pairs. */
  private overlap(ranges: readonly number[], anchors: readonly string[]): number[] {
    const spans: number[] = [];
    for (const held of anchors.map((anchor) => this.anchors.get(anchor) ?? [])) {
      for (let i = 0; i < ranges.length; i += 2) {
        for (let w = 0; w < held.length; w += 2) {
          const start = Math.max(ranges[i]!, held[w]!);
          const end = Math.min(ranges[i + 1]!, held[w + 1]!);
          if (start < end) spans.push(start, end);
        }
      }
    }
    return spans;
  }

  /**
   * The values paired with `position` in the [position, value] pairs of a field (null: of any field) inside the
   * items named (all items when none is): [step, loss] points, a window's [start, end]; undefined when no pair is
   * there, so nothing binds. A field the items named do not hold binds the field anywhere, as `get` does.
   */
  pairedWith(position: number, name: string | null, anchors: readonly string[]): NumberSpans | undefined {
    const all = [0, this.numbers.length];
    const ranges = name === null ? all : this.ranges.get(name);
    if (!ranges) return undefined;
    let spans = anchors.length ? this.overlap(ranges, anchors) : ranges;
    if (!spans.length && name !== null) spans = ranges;
    const inSpans = this.pairStarts.filter((at) => spans.some((_, s) => s % 2 === 0 && at >= spans[s]! && at + 2 <= spans[s + 1]!));
    if (!inSpans.length) return undefined;
    const values = inSpans.filter((at) => this.numbers[at] === position).flatMap((at) => [at + 1, at + 2]);
    return new NumberSpans(this.numbers, values);
  }
}

function append(map: Map<string, number[]>, name: string, start: number, end: number): void {
  const list = map.get(name);
  if (list) list.push(start, end);
  else map.set(name, [start, end]);
}
