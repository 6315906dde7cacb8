import { type NumberSet, NumberSpans } from "./numbers.js";
import type { ShownNumbers } from "./shown-numbers.js";

/** A table by character code (all of them below U+2030) of a set of characters: read per character of a sentence. */
function charTable(chars: string): Uint8Array {
  const table = new Uint8Array(0x2030);
  for (const c of chars) table[c.charCodeAt(0)] = 1;
  return table;
}
const isIn = (table: Uint8Array, code: number) => code < table.length && table[code] === 1;

/** What ends a name in a sentence: white space, brackets, quotes and list punctuation. */
const TOKEN_END = charTable(" \t\n\r\u00a0\u202f,;()[]{}\"'«»“”‘’");
/** Marks after the last word of a sentence or clause, which are not part of the name before them. */
const CLOSING = charTable(".:!?…");

/**
 * Numbers by the field names they sit under, and by the items (anchors) that hold them, kept as ranges of the
 * evidence's list of numbers (a field's values are the ones added while it was open), so the walk records one
 * range per field rather than every number under every name above it; a name's index is built the first time a
 * sentence names it.
 */
export class NamedNumbers {
  /** Per field name, and per anchor name, [start, end) pairs into `numbers`. */
  private readonly ranges = new Map<string, number[]>();
  private readonly anchors = new Map<string, number[]>();

  /** The values of `shown`, in the walk's order. */
  private readonly numbers: readonly number[];

  constructor(private readonly shown: ShownNumbers) {
    this.numbers = shown.values;
  }

  private phraseNames = false;

  /**
   * Each key of the evidence as written and the ranges of its lower-case name: a prompt repeats a few dozen keys
   * hundreds of times, so a key is lower-cased and its list found once, then one lookup per range.
   */
  private readonly rangesOfKey = new Map<string, number[]>();

  /** Adds [start, end) to the values of the field `key` (as written; fields are named in lower case). */
  addRange(key: string, start: number, end: number): void {
    if (start === end) return;
    let list = this.rangesOfKey.get(key);
    if (list === undefined) {
      const name = key.toLowerCase();
      if (name.includes(" ")) this.phraseNames = true;
      list = this.ranges.get(name);
      if (list === undefined) this.ranges.set(name, (list = []));
      this.rangesOfKey.set(key, list);
    }
    list.push(start, end);
  }

  hasPhrases(): boolean {
    return this.phraseNames;
  }

  fieldNames(): Iterable<string> {
    return this.ranges.keys();
  }

  /** Anchors of several words ("canned goods"), which no token is: looked for in the whole text. */
  private readonly phrases = new Set<string>();
  /** Anchors as the walk found them, (name, start, end) in turn: indexed at the first sentence that needs them. */
  private pending: Array<string | number> | null = [];

  addAnchor(name: string, start: number, end: number): void {
    if (start < end) this.pending!.push(name, start, end);
  }

  /**
   * The shortest and longest anchor, and the characters anchors start with (ASCII ones as bits read per token,
   * the others in a set): most tokens are none, unsliced.
   */
  private shortest = Infinity;
  private longest = 0;
  /** Four words of 32 bits, a bit per ASCII character (a typed array's own buffer cost more to make, per prompt). */
  private readonly asciiStarts = [0, 0, 0, 0];
  private readonly otherStarts = new Set<number>();

  private indexAnchors(): void {
    const pending = this.pending ?? [];
    for (let i = 0; i < pending.length; i += 3) {
      const name = pending[i] as string;
      let ranges = this.anchors.get(name);
      // A name is measured once, however many items it names.
      if (ranges === undefined) {
        this.anchors.set(name, (ranges = []));
        if (/\s/u.test(name)) this.phrases.add(name);
        this.shortest = Math.min(this.shortest, name.length);
        this.longest = Math.max(this.longest, name.length);
        const first = name.charCodeAt(0);
        if (first < 128) this.asciiStarts[first >> 5]! |= 1 << (first & 31);
        else this.otherStarts.add(first);
      }
      ranges.push(pending[i + 1] as number, pending[i + 2] as number);
    }
    this.pending = null;
  }

  private startsAnchor(first: number): boolean {
    return first < 128 ? (this.asciiStarts[first >> 5]! & (1 << (first & 31))) !== 0 : this.otherStarts.has(first);
  }

  /**
   * The anchors a text names: its tokens (a closing point, colon or exclamation mark left out) that name an item,
   * as written. Items without a number are not anchors, so naming one binds nothing.
   */
  anchorsIn(text: string): string[] {
    if (this.pending) this.indexAnchors();
    const { shortest, longest } = this;
    // Names as given: the prompt asks the model to keep ids, metric and column names exactly as written.
    let out: string[] | null = null;
    let start = 0;
    for (let i = 0, n = text.length; i <= n; i++) {
      if (i < n && !isIn(TOKEN_END, text.charCodeAt(i))) continue;
      let end = i;
      // A sentence's closing mark (or a colon) sticks to the last word.
      while (end > start && isIn(CLOSING, text.charCodeAt(end - 1))) end--;
      const length = end - start;
      if (length >= shortest && length <= longest && this.startsAnchor(text.charCodeAt(start))) {
        const token = text.slice(start, end);
        if (this.anchors.has(token) && !(out ??= []).includes(token)) out.push(token);
      }
      start = i + 1;
    }
    out ??= [];
    if (this.phrases.size) for (const phrase of this.phrases) if (text.includes(phrase)) out.push(phrase);
    return out;
  }

  places(name: string): number {
    return (this.ranges.get(name)?.length ?? 0) / 2;
  }

  get(name: string, anchors?: readonly string[]): NumberSet | undefined {
    const ranges = this.ranges.get(name);
    if (!ranges) return undefined;
    return anchors?.length ? this.within(ranges, anchors) : this.all(ranges);
  }

  /** Every value of a field: its ranges of the list. */
  private all(ranges: readonly number[]): NumberSpans {
    return new NumberSpans(this.numbers, ranges, this.shown);
  }

  /** The values of a field inside the anchored items: the spans where its ranges and theirs overlap, not copied. */
  private within(ranges: readonly number[], anchors: readonly string[]): NumberSpans | undefined {
    const spans = this.overlap(ranges, anchors);
    return spans.length ? new NumberSpans(this.numbers, spans, this.shown) : undefined;
  }

  /** Where a field's ranges and the anchored items' ranges overlap, as [start, end) pairs. */
  private overlap(ranges: readonly number[], anchors: readonly string[]): number[] {
    if (this.pending) this.indexAnchors();
    const spans: number[] = [];
    for (const anchor of anchors) {
      const held = this.anchors.get(anchor);
      if (!held) continue;
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

  /** Where each [position, value] pair starts in `numbers`, in order: the walk adds them as it goes. */
  private readonly pairStarts: number[] = [];

  addPair(start: number): void {
    this.pairStarts.push(start);
  }

  pairedWith(position: number, name: string | null, anchors: readonly string[]): NumberSet | undefined {
    const ranges = name === null ? null : this.ranges.get(name);
    let spans: number[];
    if (ranges) spans = anchors.length ? this.overlap(ranges, anchors) : ranges.slice();
    else if (name === null && anchors.length) spans = this.overlap([0, this.numbers.length], anchors);
    else if (name === null) spans = [0, this.numbers.length];
    else return undefined;
    // A field the items named do not hold binds the field anywhere, as `get` does.
    if (!spans.length && ranges) spans = ranges.slice();
    const values: number[] = [];
    let paired = false;
    for (let s = 0; s < spans.length; s += 2) {
      const end = spans[s + 1]!;
      for (let p = firstAtOrAfter(this.pairStarts, spans[s]!); p < this.pairStarts.length && this.pairStarts[p]! + 2 <= end; p++) {
        const at = this.pairStarts[p]!;
        paired = true;
        if (this.numbers[at] === position) values.push(at + 1, at + 2);
      }
    }
    return paired ? new NumberSpans(this.numbers, values, this.shown) : undefined;
  }
}

/** The index of the first element of a sorted list that is >= `value`. */
function firstAtOrAfter(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
