import { setImmediate as nextTurn } from "node:timers/promises";
import { Float64Column } from "../artifacts/float64-column.js";
import { markNumberArray } from "../artifacts/json-values.js";

/**
 * Moving a large JSON tree between threads: a parsed body from a worker back to the event loop, an artifact's
 * payload to a worker for analysis. A structured clone of such a tree costs the receiving thread more than
 * parsing the text did (measured: 580 ms to deserialize what JSON.parse builds in 300 ms, a 37 MB training
 * history). Long arrays of numbers (metric histories, histograms) are most of such a tree, so they travel as
 * Float64Array columns (transferred, or shared when they are in shared memory, never copied) and the receiver
 * rebuilds them in slices, yielding to its event loop between slices, unless their reader takes columns.
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

/**
 * The column each array rebuilt by unpackNumberColumns came from, so packing that array again (to send the
 * request's artifact to a worker for analysis) takes the column back instead of converting the array a second
 * time. A request's arrays are never written to, so the column still holds what the array holds. Taken once: the
 * column's buffers are transferred away with it.
 */
const rebuiltFrom = new WeakMap<unknown[], Omit<NumberColumn, "path">>();

function takeRebuiltColumn(array: unknown[]): Omit<NumberColumn, "path"> | null {
  const column = rebuiltFrom.get(array);
  if (!column || column.values.length !== array.length) return null;
  rebuiltFrom.delete(array);
  return column;
}

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

/** Sets `key` as an own data property, "__proto__" included (JSON.parse makes that one an own property too). */
export function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

/**
 * Takes every long number array (and every Float64Column, lent) out of `value` as a column, leaving `value` as it
 * was: only the containers on the way to a column are copied, the rest is shared (a request's tree is read again
 * after an analysis is sent off).
 * `size` estimates what the value weighs, in bytes of its JSON text, so a caller can tell a small payload from a
 * large one at no extra walk.
 */
export function packNumberColumns(value: unknown): PackedValue & { transfer: ArrayBuffer[]; size: number } {
  const columns: NumberColumn[] = [];
  const path: Array<string | number> = [];
  let size = 0;
  /** The node with its columns replaced by null: the node itself when it holds none. */
  const visit = (node: unknown): unknown => {
    if (node === null || typeof node !== "object") {
      size += typeof node === "string" ? node.length + 2 : 8;
      return node;
    }
    if (node instanceof Float64Column) {
      columns.push({ path: [...path], ...lent(node) });
      size += 8 * node.length;
      return null;
    }
    if (Array.isArray(node)) {
      const column = node.length >= MIN_COLUMN_LENGTH ? (takeRebuiltColumn(node) ?? asColumn(node)) : null;
      if (column) {
        columns.push({ path: [...path], ...column });
        size += 8 * node.length;
        return null;
      }
      let copy: unknown[] | null = null;
      for (let i = 0; i < node.length; i++) {
        path.push(i);
        const child = visit(node[i]);
        path.pop();
        if (!Object.is(child, node[i])) (copy ??= node.slice())[i] = child;
      }
      return copy ?? node;
    }
    const record = node as Record<string, unknown>;
    let copy: Record<string, unknown> | null = null;
    for (const key of Object.keys(record)) {
      path.push(key);
      size += key.length + 4;
      const child = visit(record[key]);
      path.pop();
      // A copy with the same own properties ("__proto__" included, as data).
      if (!Object.is(child, record[key])) setOwn((copy ??= Object.defineProperties({}, Object.getOwnPropertyDescriptors(record))), key, child);
    }
    return copy ?? record;
  };
  const root = visit(value);
  return { value: root, columns, transfer: transferable(columns), size };
}

/**
 * A column the tree holds (a Float64Column), lent to the receiver: the tree is read again after an analysis is sent
 * off (the curves of `trace`), so its buffers must stay. Shared memory is lent as it is; other memory is copied.
 */
function lent(column: Float64Column): Omit<NumberColumn, "path"> {
  const keep = <A extends Float64Array | Uint8Array>(a: A): A => (a.buffer instanceof SharedArrayBuffer ? a : (a.slice() as A));
  return { values: keep(column.values), nulls: column.nulls && keep(column.nulls) };
}

/** The columns' buffers to transfer rather than copy; shared ones travel as they are (a transfer list refuses them). */
export function transferable(columns: readonly NumberColumn[]): ArrayBuffer[] {
  const buffers = columns.flatMap((c) => (c.nulls ? [c.values.buffer, c.nulls.buffer] : [c.values.buffer]));
  return buffers.filter((b): b is ArrayBuffer => !(b instanceof SharedArrayBuffer));
}

/**
 * Rebuilds the number arrays of `packed` in place, a slice at a time, and returns the whole tree. A column at a
 * path `keepColumn` accepts (its reader takes columns) is put in place as a Float64Column instead, not rebuilt.
 */
export async function unpackNumberColumns(packed: PackedValue, keepColumn: (path: NumberColumn["path"]) => boolean = () => false): Promise<unknown> {
  let root = packed.value;
  for (const { path, values, nulls } of packed.columns) {
    if (path.length > 0 && keepColumn(path)) {
      setAt(root, path, new Float64Column(values, nulls));
      continue;
    }
    const array = new Array<number | null>(values.length);
    for (let start = 0; start < values.length; start += SLICE) {
      const end = Math.min(values.length, start + SLICE);
      if (nulls) for (let i = start; i < end; i++) array[i] = nulls[i] ? null : values[i]!;
      else for (let i = start; i < end; i++) array[i] = values[i]!;
      if (end < values.length) await nextTurn();
    }
    rebuiltFrom.set(array, { values, nulls });
    markNumberArray(array);
    if (path.length === 0) {
      root = array;
      continue;
    }
    setAt(root, path, array);
    await nextTurn();
  }
  return root;
}

/** Puts `value` at `path` (not empty) of the tree `root`. */
export function setAt(root: unknown, path: NumberColumn["path"], value: unknown): void {
  let parent = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const key = path[path.length - 1]!;
  if (typeof key === "number") parent[key] = value;
  else setOwn(parent, key, value);
}
