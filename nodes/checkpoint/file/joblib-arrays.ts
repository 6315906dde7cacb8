/**
 * joblib's array layout, read as joblib writes it (joblib/numpy_pickle.py, NumpyArrayWrapper.write_array): in
 * place of each numpy array `joblib.dump` pickles a `NumpyArrayWrapper` (subclass, shape, order, dtype,
 * allow_mmap, numpy_array_alignment_bytes), and right after that object's BUILD writes the array itself. A numeric
 * array is a padding-length byte, that many 0xff bytes (only when the wrapper records an alignment; joblib ≤ 1.1
 * and compressed files do not), then its raw bytes. An object array is a nested pickle of the array. joblib.load
 * reads them in its BUILD handler and goes on with the outer pickle.
 */
import { type Cursor, PickleFormatError } from "./pickle-cursor.js";
import { JOBLIB_ARRAY_WRAPPER } from "./pickle-libraries.js";
import { PyCall, PyDict, PyGlobal, PyTuple, type PyValue } from "./pickle-values.js";

/** One array joblib wrote after its wrapper. */
export interface JoblibArray {
  /** Offset of its first data byte (raw bytes, or the nested pickle of an object array) in the stream. */
  offset: number;
  /** Bytes it takes in the stream (its data, or the nested pickle). */
  bytes: number;
  /** numpy array-protocol type string ("<f8", "|u1", "|V56"…). */
  descr: string;
  shape: number[];
  order: "C" | "F";
  /** Its elements are Python objects: the bytes are a nested pickle, whose imports count as the file's. */
  objects: boolean;
}

/** The wrapper object: NEWOBJ of the class (protocol ≥ 2) or copyreg._reconstructor(class, …) (protocols 0–1). */
export function isJoblibArrayWrapper(v: PyValue): v is PyCall {
  if (!(v instanceof PyCall)) return false;
  if (v.calleeName === JOBLIB_ARRAY_WRAPPER) return true;
  const cls = v.args[0];
  return v.calleeName === "copyreg._reconstructor" && cls instanceof PyGlobal && cls.qualified === JOBLIB_ARRAY_WRAPPER;
}

interface DTypeFacts {
  descr: string;
  itemsize: number;
  objects: boolean;
}

/**
 * numpy pickles a dtype as `numpy.dtype("f8", False, True)` with BUILD state (version, byte order, subarray,
 * names, fields, elsize, alignment, flags); elsize is -1 for fixed-size types, whose size the code's digits give
 * (Unicode counts 4 bytes a character). Flags bit 0 (NPY_ITEM_REFCOUNT) marks a dtype holding objects.
 */
function dtypeFacts(v: PyValue | undefined): DTypeFacts | null {
  if (!(v instanceof PyCall) || !v.calleeName?.endsWith(".dtype") || typeof v.args[0] !== "string") return null;
  const code = v.args[0];
  const state = v.state instanceof PyTuple ? v.state.items : [];
  const order = typeof state[1] === "string" ? state[1] : "|";
  const elsize = typeof state[5] === "number" ? state[5] : -1;
  const flags = typeof state[7] === "number" ? state[7] : 0;
  const kind = code.replace(/\d+$/, "");
  const digits = Number(/\d+$/.exec(code)?.[0] ?? Number.NaN);
  const objects = kind === "O" || (flags & 1) === 1;
  const itemsize = elsize > 0 ? elsize : kind === "U" ? digits * 4 : digits;
  if (!objects && !(Number.isSafeInteger(itemsize) && itemsize > 0)) return null;
  return { descr: `${order === "=" ? "<" : order}${kind}${objects ? 8 : itemsize}`, itemsize, objects };
}

const shapeOf = (v: PyValue | undefined): number[] | null => {
  const items = v instanceof PyTuple ? v.items : Array.isArray(v) ? v : null;
  return items?.every((n): n is number => Number.isSafeInteger(n) && (n as number) >= 0) ? items : null;
};

/** A nested pickle's read, as far as this module needs it. */
export interface NestedRead {
  end: number;
  error: string | null;
}

/**
 * Reads past the array that follows a wrapper's BUILD, as joblib.load does, and says where it was. An object
 * array's nested pickle is read by `readNested` (which scans it); a wrapper whose state does not describe an array
 * is a format error: the stream cannot be followed past it.
 */
export function readJoblibArray<R extends NestedRead>(wrapper: PyCall, cur: Cursor, readNested: (start: number) => R): { array: JoblibArray; nested: R | null } {
  const state = wrapper.state instanceof PyDict ? wrapper.state : null;
  const dtype = dtypeFacts(state?.get("dtype"));
  const shape = shapeOf(state?.get("shape"));
  if (!state || !dtype || !shape) throw new PickleFormatError(`joblib NumpyArrayWrapper at byte ${cur.pos} without a readable dtype and shape`);
  const order = state.get("order") === "F" ? "F" : "C";
  if (dtype.objects) {
    const start = cur.pos;
    const nested = readNested(start);
    cur.pos = nested.end;
    return { array: { offset: start, bytes: nested.end - start, descr: dtype.descr, shape, order, objects: true }, nested };
  }
  if (typeof state.get("numpy_array_alignment_bytes") === "number") cur.need(cur.u8());
  const count = shape.reduce((a, b) => a * b, 1);
  const bytes = count * dtype.itemsize;
  if (!Number.isSafeInteger(bytes)) throw new PickleFormatError(`joblib array at byte ${cur.pos} declares ${bytes} bytes`);
  const offset = cur.need(bytes);
  return { array: { offset, bytes, descr: dtype.descr, shape, order, objects: false }, nested: null };
}
