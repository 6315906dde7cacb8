import { FlatArrayLocator } from "./flat-array-locator.js";
import { MIN_COLUMN_LENGTH, type NumberColumn, type PackedValue, setOwn } from "./number-columns.js";
import { readJsonNumber } from "./read-json-number.js";
import { RefusedJson } from "./refused-json.js";
import { ScratchColumn } from "./scratch-column.js";

/**
 * Bytes of JSON's grammar this module compares, declared here rather than imported: V8 folds a module's own `const`
 * into the code, but reads an imported one from its module cell on every comparison (~45 % of the decode's time,
 * measured on the 10^6 x 6 history body).
 */
const TAB = 0x09;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const COMMA = 0x2c;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const COLON = 0x3a;
const UPPER_I = 0x49;
const UPPER_N = 0x4e;
const OPEN_BRACKET = 0x5b;
const BACKSLASH = 0x5c;
const CLOSE_BRACKET = 0x5d;
const LOWER_F = 0x66;
const LOWER_N = 0x6e;
const LOWER_T = 0x74;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** What numberOrNull read; NULL is also the scratch column's null flag. */
const NUMBER = 0;
const NULL = 1;
const NONE = 2;

/** A flat array (numbers and literals only, no string or container in it) left for a part of the body to read. */
export interface DeferredArray {
  path: Array<string | number>;
  /** Offsets of its "[" and its "]". */
  start: number;
  end: number;
}

/**
 * The recursive reader of a body's bytes: small parts become JS values, runs of numbers and nulls go into the scratch
 * column, long flat arrays are optionally only located (deferred) for a part of the body to read. Throws RefusedJson
 * where JSON.parse (tolerant) would throw.
 */
export class ColumnDecoder {
  private pos = 0;
  private readonly path: Array<string | number> = [];
  readonly columns: NumberColumn[] = [];
  /** Arrays read by readDeferred that did not become columns (short, or holding true/false). */
  readonly arrays: Array<{ path: Array<string | number>; value: unknown[] }> = [];
  readonly deferred: DeferredArray[] = [];
  /** Located arrays whose key came again with another value (JSON.parse keeps the last): checked, not kept. */
  readonly replaced: DeferredArray[] = [];
  /** Null when no array is deferred. */
  private readonly locator: FlatArrayLocator | null;
  private readonly scratch = new ScratchColumn();
  /** Where a number outside an array's run of numbers is read to. */
  private readonly single = new Float64Array(1);

  /** `deferFrom`: flat arrays of at least this many bytes are only located, not read (readDeferred reads them). */
  constructor(
    readonly b: Buffer,
    deferFrom = Number.POSITIVE_INFINITY,
  ) {
    this.locator = deferFrom === Number.POSITIVE_INFINITY ? null : new FlatArrayLocator(b, deferFrom);
  }

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
   * Written, not returned (see readJsonNumber).
   */
  private numberOrNull(out: Float64Array, at: number): typeof NUMBER | typeof NULL | typeof NONE {
    const b = this.b;
    const c = b[this.pos];
    if (c === MINUS || (c !== undefined && c >= ZERO && c <= NINE)) {
      if (c === MINUS && b[this.pos + 1] === UPPER_I) {
        this.pos++;
        out[at] = -this.literal("Infinity", Number.POSITIVE_INFINITY);
      } else this.pos = readJsonNumber(b, this.pos, out, at);
      return NUMBER;
    }
    if (c === LOWER_N) return this.literal("null", NULL);
    if (c === UPPER_N) out[at] = this.literal("NaN", Number.NaN);
    else if (c === UPPER_I) out[at] = this.literal("Infinity", Number.POSITIVE_INFINITY);
    else return NONE;
    return NUMBER;
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
    if (deferrable && this.locator !== null) {
      const end = this.locator.flatArrayEnd(this.pos);
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
    const scratch = this.scratch;
    let count = 0;
    let hasNulls = false;
    for (;;) {
      this.skipSpace();
      if (count === scratch.values.length) scratch.grow();
      const read = this.numberOrNull(scratch.values, count);
      if (read === NONE) break;
      if (read === NULL) {
        scratch.values[count] = 0;
        hasNulls = true;
      }
      scratch.nulls[count++] = read;
      this.skipSpace();
      const c = b[this.pos++];
      if (c === CLOSE_BRACKET) return this.endNumbers(count, hasNulls);
      if (c !== COMMA) throw new RefusedJson();
    }
    const array = scratch.numbersSoFar(count);
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

  private dropColumnsUnder(prefix: ReadonlyArray<string | number>): void {
    const under = (path: ReadonlyArray<string | number>) => path.length >= prefix.length && prefix.every((key, i) => path[i] === key);
    const columns = this.columns.filter((c) => !under(c.path));
    this.columns.splice(0, this.columns.length, ...columns);
    // A located array a later value replaces is still read once, by part 0, for the text to be checked whole.
    const deferred = this.deferred.filter((d) => !under(d.path));
    this.replaced.push(...this.deferred.filter((d) => under(d.path)));
    this.deferred.splice(0, this.deferred.length, ...deferred);
  }

  /** A run of numbers and nulls closed: a JS array when short, else a column (null in the tree). */
  private endNumbers(count: number, hasNulls: boolean): unknown {
    if (count < MIN_COLUMN_LENGTH) return this.scratch.numbersSoFar(count);
    this.columns.push(this.scratch.toColumn([...this.path], count, hasNulls));
    return null;
  }
}
