import { parseTolerantJson } from "../artifacts/tolerant-json.js";
import { MIN_COLUMN_LENGTH, type NumberColumn, packNumberColumns, type PackedValue, setAt, setOwn, transferable } from "./number-columns.js";

/**
 * A large body's UTF-8 bytes → its value with every long array of numbers and nulls written straight into a
 * Float64Array column (workers/number-columns.ts), in one pass over the bytes: no JS array of 10^6 numbers is
 * built only to be copied into a column again, and the body's text is never made a string (RSS). Only the small
 * parts (objects, strings, short arrays) become JS values.
 *
 * Same value as `packNumberColumns(parseTolerantJson(text))`: JSON.parse plus the bare NaN, Infinity and -Infinity
 * Python writes, keys set as JSON.parse sets them ("__proto__" as data, the last of duplicates). Numbers are exact:
 * up to 15 significant digits with a decimal exponent within ±22 the digits and the power of ten are both exact
 * doubles, so one division or multiplication rounds correctly (Clinger's fast path); any other number is read by
 * Number() from its text, as JSON.parse would. Anything this decoder refuses (a syntax error, nesting deeper than
 * its stack) is handed to the reference parser above, so an error is JSON.parse's own, message and position.
 */
export function decodeJsonColumns(bytes: Uint8Array): PackedValue & { transfer: ArrayBuffer[] } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let packed: PackedValue;
  try {
    packed = readJsonColumns(buffer);
  } catch (err) {
    if (!(err instanceof RefusedJson || err instanceof RangeError)) throw err;
    packed = packNumberColumns(parseTolerantJson(buffer.toString("utf8")));
  }
  return { ...packed, transfer: transferable(packed.columns) };
}

/** The bytes are not JSON this decoder reads: the reference parser says why. */
export class RefusedJson extends Error {
  override name = "RefusedJson";
}

/**
 * The decoder alone, without the reference parser behind it: throws RefusedJson where JSON.parse (tolerant) would
 * throw, and a RangeError past its stack. decodeJsonColumns is what callers want; tests hold this one to JSON.parse.
 */
export function readJsonColumns(bytes: Buffer): PackedValue {
  return new ColumnDecoder(bytes).decode();
}

/**
 * Flat arrays from this many bytes on are shared out between the parts of a body; below it an array cannot hold
 * MIN_COLUMN_LENGTH numbers ("0," each) and is read where it stands.
 */
const DEFER_MIN_BYTES = 2 * MIN_COLUMN_LENGTH;

/** What one part of a body decoded: the tree (part 0 only), its share of the columns, and its other flat arrays. */
export interface BodyPart {
  value: unknown;
  columns: NumberColumn[];
  arrays: Array<{ path: Array<string | number>; value: unknown[] }>;
}

/**
 * Part `part` of `parts` of a body's decoding, so several threads decode one body: each reads the small parts of
 * the whole text (cheap: the long flat arrays are only located, by memchr), then reads its share of those arrays,
 * whole arrays by their bytes, in order. joinBodyParts puts the parts together. Null when the text is refused
 * anywhere this part looked: decodeJsonColumns of the whole body then gives the value or JSON.parse's error.
 */
export function decodeJsonPart(bytes: Uint8Array, part: number, parts: number): BodyPart | null {
  const decoder = new ColumnDecoder(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), DEFER_MIN_BYTES);
  try {
    const { value } = decoder.decode();
    if (part === 0) for (const d of decoder.replaced) new ColumnDecoder(decoder.b).readDeferred(d);
    const total = decoder.deferred.reduce((sum, d) => sum + d.end - d.start, 0);
    let before = 0;
    for (const d of decoder.deferred) {
      const length = d.end - d.start;
      if (Math.min(parts - 1, Math.floor(((before + length / 2) * parts) / total)) === part) decoder.readDeferred(d);
      before += length;
    }
    return { value: part === 0 ? value : null, columns: decoder.columns, arrays: decoder.arrays };
  } catch (err) {
    if (err instanceof RefusedJson || err instanceof RangeError) return null;
    throw err;
  }
}

/** The body decoded by all its parts (decodeJsonPart, in part order) as one packed value. */
export function joinBodyParts(parts: readonly BodyPart[]): PackedValue {
  let value = parts[0]!.value;
  for (const { path, value: array } of parts.flatMap((p) => p.arrays)) {
    if (path.length === 0) value = array;
    else setAt(value, path, array);
  }
  return { value, columns: parts.flatMap((p) => p.columns) };
}

/** 10^0 … 10^22, every one an exact double (read from their literals: `**` need not be exact). */
const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));
/** Most significant digits whose integer is exact in a double and leaves the fast path exact (Clinger). */
const FAST_DIGITS = 15;

/** What numberOrNull read; NULL is also the scratch column's null flag. */
const NUMBER = 0;
const NULL = 1;
const NONE = 2;

/** Bytes of JSON's grammar. */
const TAB = 0x09;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const PLUS = 0x2b;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const COLON = 0x3a;
const UPPER_E = 0x45;
const UPPER_I = 0x49;
const UPPER_N = 0x4e;
const OPEN_BRACKET = 0x5b;
const BACKSLASH = 0x5c;
const CLOSE_BRACKET = 0x5d;
const LOWER_E = 0x65;
const LOWER_F = 0x66;
const LOWER_N = 0x6e;
const LOWER_T = 0x74;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** A flat array (numbers and literals only, no string or container in it) left for a part of the body to read. */
interface DeferredArray {
  path: Array<string | number>;
  /** Offsets of its "[" and its "]". */
  start: number;
  end: number;
}

class ColumnDecoder {
  private pos = 0;
  private readonly path: Array<string | number> = [];
  readonly columns: NumberColumn[] = [];
  /** Arrays read by readDeferred that did not become columns (short, or holding true/false). */
  readonly arrays: Array<{ path: Array<string | number>; value: unknown[] }> = [];
  readonly deferred: DeferredArray[] = [];
  /** Located arrays whose key came again with another value (JSON.parse keeps the last): checked, not kept. */
  readonly replaced: DeferredArray[] = [];
  /** Next offset of a byte (at or after the last offset asked about), so finding flat arrays stays one pass. */
  private readonly nextOf = new Map<number, number>();
  /**
   * The array being read while it holds numbers and nulls only, in shared memory; grown by doubling, reused by the
   * next short array. A long one becomes a column as it stands (a view of its first `count` values: the pages past
   * them are never touched, so cost no memory) and the next array starts in a fresh one of the same size, which a
   * history's next metric fills without growing.
   */
  private scratch = sharedFloat64(MIN_COLUMN_LENGTH);
  private scratchNulls = new Uint8Array(MIN_COLUMN_LENGTH);
  /** Where a number outside an array's run of numbers is read to. */
  private readonly single = new Float64Array(1);

  /** `deferFrom`: flat arrays of at least this many bytes are only located, not read (readDeferred reads them). */
  constructor(
    readonly b: Buffer,
    private readonly deferFrom = Number.POSITIVE_INFINITY,
  ) {}

  /** Reads a flat array decode() located, as a column or (short, or not all numbers) into `arrays`. */
  readDeferred({ path, start, end }: DeferredArray): void {
    this.pos = start;
    this.path.splice(0, this.path.length, ...path);
    const value = this.array(false);
    if (this.pos !== end + 1) throw new RefusedJson();
    if (value !== null) this.arrays.push({ path, value: value as unknown[] });
  }

  decode(): PackedValue {
    const value = this.value();
    this.skipSpace();
    if (this.pos !== this.b.length) throw new RefusedJson();
    return { value, columns: this.columns };
  }

  private skipSpace(): void {
    const b = this.b;
    let p = this.pos;
    for (;;) {
      const c = b[p];
      if (c === SPACE || c === NEWLINE || c === RETURN || c === TAB) p++;
      else break;
    }
    this.pos = p;
  }

  private value(): unknown {
    this.skipSpace();
    const c = this.b[this.pos];
    switch (c) {
      case OPEN_BRACE:
        return this.object();
      case OPEN_BRACKET:
        return this.array();
      case QUOTE:
        return this.string();
      case LOWER_T:
        return this.literal("true", true);
      case LOWER_F:
        return this.literal("false", false);
      default: {
        const read = this.numberOrNull(this.single, 0);
        if (read === NONE) throw new RefusedJson();
        return read === NUMBER ? this.single[0] : null;
      }
    }
  }

  private literal<T>(word: string, value: T): T {
    for (let i = 0; i < word.length; i++) if (this.b[this.pos + i] !== word.charCodeAt(i)) throw new RefusedJson();
    this.pos += word.length;
    return value;
  }

  /**
   * A number (NaN and ±Infinity included), written to out[at], or null at pos; NONE when neither starts there.
   * Written, not returned: a double returned from a call that is not inlined is boxed on the heap, millions of times.
   */
  private numberOrNull(out: Float64Array, at: number): typeof NUMBER | typeof NULL | typeof NONE {
    const b = this.b;
    const c = b[this.pos];
    if (c === MINUS || (c !== undefined && c >= ZERO && c <= NINE)) {
      if (c === MINUS && b[this.pos + 1] === UPPER_I) {
        this.pos++;
        out[at] = -this.literal("Infinity", Number.POSITIVE_INFINITY);
      } else this.number(out, at);
      return NUMBER;
    }
    if (c === LOWER_N) return this.literal("null", NULL);
    if (c === UPPER_N) out[at] = this.literal("NaN", Number.NaN);
    else if (c === UPPER_I) out[at] = this.literal("Infinity", Number.POSITIVE_INFINITY);
    else return NONE;
    return NUMBER;
  }

  /** A JSON number at pos (its grammar exactly: no leading zeros, digits after a dot and an e), into out[at]. */
  private number(out: Float64Array, at: number): void {
    const b = this.b;
    const start = this.pos;
    let p = start;
    const negative = b[p] === MINUS;
    if (negative) p++;
    let mantissa = 0;
    let digits = 0;
    let exponent = 0;
    let c = b[p]!;
    if (c === ZERO) p++;
    else if (c > ZERO && c <= NINE) {
      do {
        mantissa = mantissa * 10 + (c - ZERO);
        digits++;
        c = b[++p]!;
      } while (c >= ZERO && c <= NINE);
    } else throw new RefusedJson();
    if (b[p] === DOT) {
      c = b[++p]!;
      if (!(c >= ZERO && c <= NINE)) throw new RefusedJson();
      // Zeros before the first significant digit only move the exponent.
      if (digits === 0) {
        while (c === ZERO) {
          exponent--;
          c = b[++p]!;
        }
      }
      while (c >= ZERO && c <= NINE) {
        mantissa = mantissa * 10 + (c - ZERO);
        digits++;
        exponent--;
        c = b[++p]!;
      }
    }
    c = b[p]!;
    if (c === LOWER_E || c === UPPER_E) {
      c = b[++p]!;
      const negativeExponent = c === MINUS;
      if (negativeExponent || c === PLUS) c = b[++p]!;
      if (!(c >= ZERO && c <= NINE)) throw new RefusedJson();
      let e = 0;
      do {
        if (e < 1e6) e = e * 10 + (c - ZERO);
        c = b[++p]!;
      } while (c >= ZERO && c <= NINE);
      exponent += negativeExponent ? -e : e;
    }
    this.pos = p;
    if (digits <= FAST_DIGITS && exponent >= -22 && exponent <= 22) {
      const value = exponent < 0 ? mantissa / POW10[-exponent]! : mantissa * POW10[exponent]!;
      out[at] = negative ? -value : value;
    } else out[at] = Number(b.toString("latin1", start, p));
  }

  /** A string at pos (the opening quote); escapes and raw control characters as JSON.parse reads them. */
  private string(): string {
    const b = this.b;
    const start = ++this.pos;
    let p = start;
    let plain = true;
    let ascii = true;
    for (;;) {
      const c = b[p];
      if (c === QUOTE) break;
      if (c === undefined || c < SPACE) throw new RefusedJson();
      if (c === BACKSLASH) {
        plain = false;
        p++; // the escaped character, a quote included
        if (b[p] === undefined) throw new RefusedJson();
      } else if (c >= 0x80) ascii = false;
      p++;
    }
    this.pos = p + 1;
    if (plain) return ascii ? b.toString("latin1", start, p) : b.toString("utf8", start, p);
    const text = b.toString("utf8", start - 1, p + 1);
    try {
      return JSON.parse(text) as string;
    } catch {
      throw new RefusedJson();
    }
  }

  private object(): Record<string, unknown> {
    const b = this.b;
    const record: Record<string, unknown> = {};
    this.pos++;
    this.skipSpace();
    if (b[this.pos] === CLOSE_BRACE) {
      this.pos++;
      return record;
    }
    for (;;) {
      this.skipSpace();
      if (b[this.pos] !== QUOTE) throw new RefusedJson();
      const key = this.string();
      this.skipSpace();
      if (b[this.pos++] !== COLON) throw new RefusedJson();
      this.path.push(key);
      // A repeated key: JSON.parse keeps the last value, so the columns of the one before go too.
      if (Object.hasOwn(record, key)) this.dropColumnsUnder(this.path);
      setOwn(record, key, this.value());
      this.path.pop();
      this.skipSpace();
      const c = b[this.pos++];
      if (c === CLOSE_BRACE) return record;
      if (c !== COMMA) throw new RefusedJson();
    }
  }

  /**
   * An array at pos. Its elements go into the scratch column while they are numbers and nulls; a long array that
   * ends so becomes a column (null in the tree), a short one a JS array. The first other element turns what was
   * read so far into a JS array and the rest is read as values.
   */
  private array(deferrable = true): unknown {
    const b = this.b;
    if (deferrable && this.deferFrom !== Number.POSITIVE_INFINITY) {
      const end = this.flatArrayEnd(this.pos);
      if (end >= 0) {
        this.deferred.push({ path: [...this.path], start: this.pos, end });
        this.pos = end + 1;
        return null;
      }
    }
    this.pos++;
    this.skipSpace();
    if (b[this.pos] === CLOSE_BRACKET) {
      this.pos++;
      return [];
    }
    let count = 0;
    let hasNulls = false;
    for (;;) {
      this.skipSpace();
      if (count === this.scratch.length) this.growScratch();
      const read = this.numberOrNull(this.scratch, count);
      if (read === NONE) break;
      if (read === NULL) {
        this.scratch[count] = 0;
        hasNulls = true;
      }
      this.scratchNulls[count++] = read;
      this.skipSpace();
      const c = b[this.pos++];
      if (c === CLOSE_BRACKET) return this.endNumbers(count, hasNulls);
      if (c !== COMMA) throw new RefusedJson();
    }
    const array = this.numbersSoFar(count);
    for (;;) {
      this.path.push(array.length);
      array.push(this.value());
      this.path.pop();
      this.skipSpace();
      const c = b[this.pos++];
      if (c === CLOSE_BRACKET) return array;
      if (c !== COMMA) throw new RefusedJson();
    }
  }

  /**
   * The offset of the "]" closing the array at `start` when it is flat and at least deferFrom bytes long, else -1.
   * Flat: no "[", "{" or '"' before the first "]", which therefore closes it.
   */
  private flatArrayEnd(start: number): number {
    const end = this.next(CLOSE_BRACKET, start);
    if (end - start < this.deferFrom || end === this.b.length) return -1;
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

  private dropColumnsUnder(prefix: ReadonlyArray<string | number>): void {
    const under = (path: ReadonlyArray<string | number>) => path.length >= prefix.length && prefix.every((key, i) => path[i] === key);
    const columns = this.columns.filter((c) => !under(c.path));
    this.columns.splice(0, this.columns.length, ...columns);
    // A located array a later value replaces is still read once, by part 0, for the text to be checked whole.
    const deferred = this.deferred.filter((d) => !under(d.path));
    this.replaced.push(...this.deferred.filter((d) => under(d.path)));
    this.deferred.splice(0, this.deferred.length, ...deferred);
  }

  private growScratch(): void {
    const values = sharedFloat64(this.scratch.length * 2);
    values.set(this.scratch);
    const nulls = new Uint8Array(values.length);
    nulls.set(this.scratchNulls);
    this.scratch = values;
    this.scratchNulls = nulls;
  }

  private numbersSoFar(count: number): unknown[] {
    const array: unknown[] = new Array(count);
    for (let i = 0; i < count; i++) array[i] = this.scratchNulls[i] ? null : this.scratch[i];
    return array;
  }

  private endNumbers(count: number, hasNulls: boolean): unknown {
    if (count < MIN_COLUMN_LENGTH) return this.numbersSoFar(count);
    this.columns.push({ path: [...this.path], values: this.scratch.subarray(0, count), nulls: hasNulls ? shared(this.scratchNulls.subarray(0, count)) : null });
    this.scratch = sharedFloat64(this.scratch.length);
    return null;
  }
}

/**
 * Columns live in shared memory: the event loop and the worker that analyses a column read the same bytes, and the
 * request keeps them after (its curves are read again), so no thread copies them or gives them up.
 */
function sharedFloat64(length: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(length * Float64Array.BYTES_PER_ELEMENT));
}

/** A copy of a column's null flags in shared memory (see sharedFloat64). */
function shared(flags: Uint8Array): Uint8Array {
  const copy = new Uint8Array(new SharedArrayBuffer(flags.byteLength));
  copy.set(flags);
  return copy;
}
