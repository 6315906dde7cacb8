/** Bytes of JSON's grammar, declared in each module that compares them (see json-column-decoder.ts for why). */
const QUOTE = 0x22;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;

/**
 * Finds the long flat arrays of a body's bytes without reading them, by memchr (Buffer#indexOf) with one cached
 * next-offset per byte: offsets asked about never decrease, so locating every array of a body stays one pass.
 */
export class FlatArrayLocator {
  /** Next offset of a byte (at or after the last offset asked about). */
  private readonly nextOf = new Map<number, number>();

  /** `minBytes`: arrays shorter than this in bytes are not located. */
  constructor(
    private readonly b: Buffer,
    private readonly minBytes: number,
  ) {}

  /**
   * The offset of the "]" closing the array at `start` when it is flat and at least minBytes long, else -1.
   * Flat: no "[", "{" or '"' before the first "]", which therefore closes it.
   */
  flatArrayEnd(start: number): number {
    const end = this.next(CLOSE_BRACKET, start);
    if (end - start < this.minBytes || end === this.b.length) return -1;
    return this.next(OPEN_BRACKET, start + 1) > end && this.next(OPEN_BRACE, start) > end && this.next(QUOTE, start) > end ? end : -1;
  }

  /** The first offset at or after `from` holding `byte` (the length when none does); offsets asked never decrease. */
  private next(byte: number, from: number): number {
    const known = this.nextOf.get(byte);
    if (known !== undefined && known >= from) return known;
    const found = this.b.indexOf(byte, from);
    const at = found < 0 ? this.b.length : found;
    this.nextOf.set(byte, at);
    return at;
  }
}
