import { parseTolerantJson } from "../artifacts/tolerant-json.js";
import { ColumnDecoder } from "./json-column-decoder.js";
import { MIN_COLUMN_LENGTH, type NumberColumn, packNumberColumns, type PackedValue, setAt, transferable } from "./number-columns.js";
import { RefusedJson } from "./refused-json.js";

/**
 * A large body's UTF-8 bytes → its value with every long array of numbers and nulls written straight into a
 * Float64Array column (workers/number-columns.ts), in one pass over the bytes: no JS array of 10^6 numbers is
 * built only to be copied into a column again, and the body's text is never made a string (RSS). Only the small
 * parts (objects, strings, short arrays) become JS values.
 *
 * Same value as `packNumberColumns(parseTolerantJson(text))`: JSON.parse plus the bare NaN, Infinity and -Infinity
 * Python writes, keys set as JSON.parse sets them ("__proto__" as data, the last of duplicates). Numbers are exact
 * (workers/read-json-number.ts). Anything this decoder refuses (a syntax error, nesting deeper than its stack) is
 * handed to the reference parser above, so an error is JSON.parse's own, message and position.
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
