import type { DType } from "./dtypes.js";

/** `\x93NUMPY`: the magic string of NumPy's .npy format (numpy.lib.format). */
export const NPY_MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59] as const;

/** What an .npy header declares. */
export interface NpyHeader {
  /** The array-protocol type string (`<f4`, `|O`, …) or, for structured dtypes, the raw descr text. */
  descr: string;
  fortranOrder: boolean;
  shape: number[];
  /** Absolute offset of the array data (or, for object arrays, of the pickle that holds them). */
  dataOffset: number;
  /**
   * The array's elements are Python objects, stored as a pickle after the header (numpy.save with
   * allow_pickle): loading it with allow_pickle=True unpickles that stream.
   */
  holdsPickle: boolean;
}

/** Little-endian (or byte-order-free) array-protocol codes we can measure, by element type. */
const DTYPES: Record<string, DType> = {
  "<f2": "F16", "<f4": "F32", "<f8": "F64", "<i1": "I8", "|i1": "I8", "|u1": "U8", "<u1": "U8", "<i2": "I16",
  "<u2": "U16", "<i4": "I32", "<u4": "U32", "<i8": "I64", "<u8": "U64", "|b1": "BOOL", "<c8": "C64", "<c16": "C128",
};

/** Bytes that hold any .npy header: magic, version, a u32 length and numpy's header size limit. */
export const MAX_NPY_HEADER = 12 + 65536;

export const startsWithNpyMagic = (head: Uint8Array) => NPY_MAGIC.every((b, i) => head[i] === b);

/**
 * Parses an .npy header (format versions 1–3: a u16 or u32 length, then a Python dict literal). Returns null when
 * `bytes` does not start with a complete header. Never evaluates the literal: the three keys are read by pattern.
 */
export function parseNpyHeader(bytes: Uint8Array): NpyHeader | null {
  if (!startsWithNpyMagic(bytes) || bytes.length < 10) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const major = bytes[6]!;
  const lengthBytes = major === 1 ? 2 : 4;
  if (bytes.length < 8 + lengthBytes) return null;
  const length = lengthBytes === 2 ? view.getUint16(8, true) : view.getUint32(8, true);
  const start = 8 + lengthBytes;
  if (bytes.length < start + length) return null;
  const text = new TextDecoder(major >= 3 ? "utf-8" : "latin1").decode(bytes.subarray(start, start + length));
  const descrMatch = /['"]descr['"]\s*:\s*(?:'([^']*)'|"([^"]*)"|(\[.*\]))/s.exec(text);
  const shapeMatch = /['"]shape['"]\s*:\s*\(([^)]*)\)/.exec(text);
  if (!descrMatch || !shapeMatch) return null;
  const descr = descrMatch[1] ?? descrMatch[2] ?? descrMatch[3]!;
  const shape = shapeMatch[1]!.split(",").map((s) => s.trim()).filter((s) => s !== "").map(Number);
  if (shape.some((n) => !Number.isSafeInteger(n) || n < 0)) return null;
  return {
    descr,
    fortranOrder: /['"]fortran_order['"]\s*:\s*True/.test(text),
    shape,
    dataOffset: start + length,
    // An object field anywhere in the dtype (`|O`, or `('a', 'O')` inside a structured descr) makes numpy pickle.
    holdsPickle: /(^|[|<>=,'"(\s])O\d*(['"]|$)/.test(descr),
  };
}

/** The element type of a plain (non-structured, non-object) little-endian array, or null. */
export function npyDType(header: NpyHeader): DType | null {
  return DTYPES[header.descr] ?? null;
}
