import type { Dataset, Group } from "h5wasm/node";
import type { DType } from "./dtypes.js";
import type { FormatContents, ScannedTensor, TensorGroup } from "./scan-types.js";
import { canMeasure } from "./stats-layout.js";
import { TensorStatsAccumulator } from "./tensor-stats.js";

type H5 = typeof import("h5wasm/node");
let loaded: Promise<H5> | null = null;

/** h5wasm (libhdf5 built to WebAssembly, reading the host's files through NODERAWFS), loaded on the first HDF5 file only. */
function h5wasm(): Promise<H5> {
  loaded ??= import("h5wasm/node").then(async (m) => {
    await m.ready;
    return m;
  });
  return loaded;
}

/** Options of `readHdf5`. */
export interface Hdf5Options {
  signal?: AbortSignal;
  /** Whether a dataset of `numel` elements has its values read (header-only scans read tiny ones only). */
  readValues: (numel: number) => boolean;
  /** Bytes read per slice (default 4 MiB): the reader's only large allocation, in the WebAssembly heap. */
  chunkBytes?: number;
}

/** What an HDF5 file holds: datasets as tensors with their statistics, and the root's text attributes (Keras' model_config…). */
export interface Hdf5Contents extends FormatContents {
  attributes: Record<string, string>;
}

const H5T_INTEGER = 0;
const H5T_FLOAT = 1;
const FLOATS: Record<number, DType> = { 2: "F16", 4: "F32", 8: "F64" };
const SIGNED: Record<number, DType> = { 1: "I8", 2: "I16", 4: "I32", 8: "I64" };
const UNSIGNED: Record<number, DType> = { 1: "U8", 2: "U16", 4: "U32", 8: "U64" };
const MAX_DATASETS = 100_000;

function dtypeOf(m: { type: number; size: number; signed: boolean; littleEndian: boolean }): DType | null {
  if (!m.littleEndian && m.size > 1) return null;
  if (m.type === H5T_FLOAT) return FLOATS[m.size] ?? null;
  if (m.type === H5T_INTEGER) return (m.signed ? SIGNED : UNSIGNED)[m.size] ?? null;
  return null;
}

/** Keras keeps optimizer variables under `optimizer/` (v3) or `optimizer_weights/` (legacy .h5). */
const groupOf = (path: string): TensorGroup => (/^\/optimizer(_weights)?\//.test(path) ? "optimizer" : "model");

/**
 * Streams a dataset's values through the statistics, a slice of whole rows at a time read by libhdf5 into the
 * WebAssembly heap and measured there without a copy (chunked and compressed datasets alike).
 */
function measure(h5: H5, ds: Dataset, t: ScannedTensor, options: Hdf5Options): void {
  const M = h5.Module;
  const shape = t.shape.length === 0 ? [1] : t.shape;
  const rowElems = shape.slice(1).reduce((a, b) => a * b, 1);
  const itemBytes = ds.metadata.size;
  const rowsPerSlice = Math.max(1, Math.floor((options.chunkBytes ?? 4 << 20) / Math.max(1, rowElems * itemBytes)));
  // Keras kernels are (inputs, outputs): rows are not output units, so dead-unit counts are not made from them.
  const acc = new TensorStatsAccumulator(t.dtype!, null, t.numel);
  const ptr = M._malloc(Math.min(shape[0]!, rowsPerSlice) * rowElems * itemBytes);
  try {
    for (let row = 0; row < shape[0]!; row += rowsPerSlice) {
      options.signal?.throwIfAborted();
      const rows = Math.min(rowsPerSlice, shape[0]! - row);
      const count = t.shape.length === 0 ? null : [BigInt(rows), ...shape.slice(1).map(BigInt)];
      const offset = t.shape.length === 0 ? null : [BigInt(row), ...shape.slice(1).map(() => 0n)];
      const strides = t.shape.length === 0 ? null : shape.map(() => 1n);
      M.get_dataset_data(ds.file_id, ds.path, count, offset, strides, BigInt(ptr));
      acc.push(M.HEAPU8.subarray(ptr, ptr + rows * rowElems * itemBytes));
    }
  } finally {
    M._free(ptr);
  }
  t.stats = acc.finish();
}

function rootAttributes(file: Group): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, attr] of Object.entries(file.attrs)) {
    const value = attr.value;
    if (typeof value === "string") out[name] = value;
    else if (value instanceof Uint8Array) out[name] = new TextDecoder().decode(value);
  }
  return out;
}

/**
 * Reads an HDF5 file (legacy Keras `.h5`, `.weights.h5`, a `.keras` archive's model.weights.h5) with h5wasm: every
 * dataset as a tensor (path as name, HDF5 type as dtype), its statistics streamed in bounded memory, and the root's
 * text attributes. A file libhdf5 cannot open is one `unreadable` issue.
 */
export async function readHdf5(path: string, options: Hdf5Options): Promise<Hdf5Contents> {
  const out: Hdf5Contents = { tensors: [], issues: [], metadata: {}, loadCode: [], attributes: {} };
  const h5 = await h5wasm();
  let file: InstanceType<H5["File"]>;
  try {
    file = new h5.File(path, "r");
  } catch (err) {
    out.issues.push({ kind: "unreadable", detail: `HDF5: libhdf5 could not open the file (${(err as Error).message ?? err}): it is truncated or damaged` });
    return out;
  }
  try {
    out.attributes = rootAttributes(file);
    const stack: Group[] = [file];
    while (stack.length > 0 && out.tensors.length < MAX_DATASETS) {
      const group = stack.pop()!;
      for (const name of group.keys()) {
        const child = group.get(name);
        if (child instanceof h5.Group) stack.push(child);
        else if (child instanceof h5.Dataset) {
          out.tensors.push(readDataset(h5, child, options));
          // libhdf5 reads synchronously: the event loop gets a turn between datasets.
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
    }
  } catch (err) {
    if (options.signal?.aborted) throw err;
    out.issues.push({ kind: "unreadable", detail: `HDF5: ${(err as Error).message ?? err}` });
  } finally {
    file.close();
  }
  out.tensors.sort((a, b) => a.name.localeCompare(b.name));
  return out;
}

function readDataset(h5: H5, ds: Dataset, options: Hdf5Options): ScannedTensor {
  const m = ds.metadata;
  const shape = m.shape ?? [];
  const dtype = dtypeOf(m);
  const numel = shape.reduce((a, b) => a * b, 1);
  const t: ScannedTensor = {
    name: ds.path.replace(/^\//, ""), dtype, rawDtype: dtype ?? `hdf5_class_${m.type}_${m.size}`, shape, numel,
    byteRange: null, stats: null, group: groupOf(ds.path),
  };
  if (dtype && numel > 0 && canMeasure(dtype) && options.readValues(numel)) measure(h5, ds, t, options);
  return t;
}
