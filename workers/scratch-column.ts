import { MIN_COLUMN_LENGTH, type NumberColumn } from "./number-columns.js";

/**
 * The array being read while it holds numbers and nulls only, in shared memory; grown by doubling, reused by the
 * next short array. A long one becomes a column as it stands (a view of its first `count` values: the pages past
 * them are never touched, so cost no memory) and the next array starts in a fresh one of the same size, which a
 * history's next metric fills without growing.
 */
export class ScratchColumn {
  values = sharedFloat64(MIN_COLUMN_LENGTH);
  /** Non-zero where the value is null (its value is then 0). */
  nulls = new Uint8Array(MIN_COLUMN_LENGTH);

  grow(): void {
    const values = sharedFloat64(this.values.length * 2);
    values.set(this.values);
    const nulls = new Uint8Array(values.length);
    nulls.set(this.nulls);
    this.values = values;
    this.nulls = nulls;
  }

  /** The first `count` values as a JS array, nulls as null. */
  numbersSoFar(count: number): unknown[] {
    const array: unknown[] = new Array(count);
    for (let i = 0; i < count; i++) array[i] = this.nulls[i] ? null : this.values[i];
    return array;
  }

  /** The first `count` values as the column at `path`; the next array is read into a fresh scratch. */
  toColumn(path: Array<string | number>, count: number, hasNulls: boolean): NumberColumn {
    const column = { path, values: this.values.subarray(0, count), nulls: hasNulls ? shared(this.nulls.subarray(0, count)) : null };
    this.values = sharedFloat64(this.values.length);
    return column;
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
