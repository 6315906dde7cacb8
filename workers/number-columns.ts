import { setImmediate as nextTurn } from "node:timers/promises";

/**
 * Moving a parsed body from a worker thread back to the event loop: a structured clone of a large JSON tree
 * costs the receiving thread more than parsing the text did (measured: 580 ms to deserialize what JSON.parse
 * builds in 300 ms, a 37 MB training history). Long arrays of numbers (metric histories, histograms) are most of
 * such a body, so they travel as Float64Array columns (transferred, not copied) and the receiver rebuilds them
 * in slices, yielding to the event loop between slices.
 */

/** An array of numbers (and nulls) taken out of the tree, at `path` from the root. */
export interface NumberColumn {
  path: Array<string | number>;
  values: Float64Array;
  /** 1 where the element was null; absent when none was. */
  nulls: Uint8Array | null;
}

export interface PackedValue {
  /** The tree with every column replaced by null. */
  value: unknown;
  columns: NumberColumn[];
}

/** Arrays shorter than this stay in the tree: cloning them costs less than a column. */
export const MIN_COLUMN_LENGTH = 1024;
/** Elements rebuilt between two yields to the event loop (~1 ms of work). */
const SLICE = 65_536;

function asColumn(array: unknown[]): Omit<NumberColumn, "path"> | null {
  const values = new Float64Array(array.length);
  let nulls: Uint8Array | null = null;
  for (let i = 0; i < array.length; i++) {
    const x = array[i];
    if (typeof x === "number") values[i] = x;
    else if (x === null) (nulls ??= new Uint8Array(array.length))[i] = 1;
    else return null;
  }
  return { values, nulls };
}

/** Takes every long number array out of `value` (mutating it) as a column; the buffers to transfer come with it. */
export function packNumberColumns(value: unknown): PackedValue & { transfer: ArrayBuffer[] } {
  const columns: NumberColumn[] = [];
  const path: Array<string | number> = [];
  const visit = (node: unknown): boolean => {
    if (node === null || typeof node !== "object") return false;
    if (Array.isArray(node)) {
      const column = node.length >= MIN_COLUMN_LENGTH ? asColumn(node) : null;
      if (column) {
        columns.push({ path: [...path], ...column });
        return true;
      }
      for (let i = 0; i < node.length; i++) {
        path.push(i);
        if (visit(node[i])) node[i] = null;
        path.pop();
      }
      return false;
    }
    const record = node as Record<string, unknown>;
    // Own keys only; JSON.parse made "__proto__" an own data property, so assigning it sets that property.
    for (const key of Object.keys(record)) {
      path.push(key);
      if (visit(record[key])) record[key] = null;
      path.pop();
    }
    return false;
  };
  const root = visit(value) ? null : value;
  const transfer = columns.flatMap((c) => (c.nulls ? [c.values.buffer as ArrayBuffer, c.nulls.buffer as ArrayBuffer] : [c.values.buffer as ArrayBuffer]));
  return { value: root, columns, transfer };
}

/** Rebuilds the number arrays of `packed` in place, a slice at a time, and returns the whole tree. */
export async function unpackNumberColumns(packed: PackedValue): Promise<unknown> {
  let root = packed.value;
  for (const { path, values, nulls } of packed.columns) {
    const array = new Array<number | null>(values.length);
    for (let start = 0; start < values.length; start += SLICE) {
      const end = Math.min(values.length, start + SLICE);
      if (nulls) for (let i = start; i < end; i++) array[i] = nulls[i] ? null : values[i]!;
      else for (let i = start; i < end; i++) array[i] = values[i]!;
      if (end < values.length) await nextTurn();
    }
    if (path.length === 0) {
      root = array;
      continue;
    }
    let parent = root as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    parent[path[path.length - 1]!] = array;
    await nextTurn();
  }
  return root;
}
