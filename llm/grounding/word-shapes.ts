/** Lengths a shape table tells apart (a bit each, the masks staying small integers); a longer word always may be one of the words. */
const LENGTHS = 30;

/** The lower case of each UTF-16 unit (+1; 0: not read yet), for the first character of a word. */
const LOWER_UNIT = new Uint16Array(0x10000);

/** The first UTF-16 unit of the lower case of a word that starts with `unit` (not a surrogate, not İ). */
function lowerUnit(unit: number): number {
  if (unit < 128) return unit >= 65 && unit <= 90 ? unit + 32 : unit;
  let lower = LOWER_UNIT[unit]!;
  if (lower === 0) LOWER_UNIT[unit] = lower = String.fromCharCode(unit).toLowerCase().charCodeAt(0) + 1;
  return lower - 1;
}

const isSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdfff;

/**
 * The shapes (first character of the lower case, length) of a set of lower-case words: a word of another shape
 * is none of them, told without cutting it out of its text, lower-casing it and looking it up. A sentence's
 * numbers each look back over a few words for the field they are stated for, and most of those words ("is",
 * "of", "à", "s'établit") have the shape of no field.
 */
export class WordShapes {
  /**
   * Per first character, a bit per length below LENGTHS: ASCII ones in a plain list (a typed array's own buffer
   * cost more to make, once per prompt, than its reads save), the others in a map.
   */
  private readonly ascii: number[];
  private readonly others: Map<number, number>;

  /** The shapes of `words`, and of `base`'s words when given (copied, so a shared base is built once). */
  constructor(words: Iterable<string>, base?: WordShapes) {
    this.ascii = base ? base.ascii.slice() : new Array<number>(128).fill(0);
    this.others = new Map(base?.others);
    for (const word of words) {
      if (!word || word.length >= LENGTHS) continue;
      const first = word.charCodeAt(0);
      const bit = 1 << word.length;
      if (first < 128) this.ascii[first]! |= bit;
      else this.others.set(first, (this.others.get(first) ?? 0) | bit);
    }
  }

  /**
   * Whether a word whose lower case is letter by letter (no İ, no Σ), starting with `unit` and `length` units
   * long, may be one of the words.
   */
  mayHold(unit: number, length: number): boolean {
    if (length === 0) return false;
    if (length >= LENGTHS || isSurrogate(unit)) return true;
    const first = lowerUnit(unit);
    const lengths = first < 128 ? this.ascii[first]! : (this.others.get(first) ?? 0);
    return (lengths & (1 << length)) !== 0;
  }
}
