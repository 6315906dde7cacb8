import { type FileHandle, open, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type DType, tensorBytes } from "./dtypes.js";
import { messageFields, ProtoError, varintsOf } from "./proto-wire.js";
import { readBytes } from "./range-reader.js";
import type { FormatContents, IntegrityIssue, ScannedTensor } from "./scan-types.js";

/**
 * A TensorFlow checkpoint (TensorBundle, `variables/variables.index` + `variables.data-NNNNN-of-NNNNN`), read
 * without TensorFlow: the index is a LevelDB-format table (footer → index block → data blocks of prefix-compressed
 * keys) whose values are BundleEntryProto records (dtype, shape, shard, offset, size); each variable's bytes are
 * then placed in its data shard for the statistics pass. Compressed blocks are reported, not read.
 */

/** The LevelDB table magic number TensorFlow's table writer ends the file with (little-endian). */
const TABLE_MAGIC = 0xdb4775248b80fb57n;
const FOOTER_BYTES = 48;
const MAX_INDEX_BYTES = 256 << 20;
/** tensorflow DataType → element type (DT_STRING, resources and variants are not measured). */
const TF_DTYPES: Record<number, DType> = { 1: "F32", 2: "F64", 3: "I32", 4: "U8", 5: "I16", 6: "I8", 9: "I64", 10: "BOOL", 14: "BF16", 17: "U16", 19: "F16", 22: "U32", 23: "U64" };
const DT_STRING = 7;
/** BundleEntryProto fields: dtype 1, shape 2, shard_id 3, offset 4, size 5, slices 7. */
const ENTRY = { dtype: 1, shape: 2, shard: 3, offset: 4, size: 5, slices: 7 } as const;

class TableError extends Error {}

function varint(buf: Uint8Array, p: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (let i = p; i < buf.length && i < p + 10; i++) {
    value += (buf[i]! & 0x7f) * scale;
    scale *= 128;
    if ((buf[i]! & 0x80) === 0) return [value, i + 1];
  }
  throw new TableError(`a varint at byte ${p} is cut short`);
}

/** A block's (key, value) entries; keys are prefix-compressed against the previous one. */
function blockEntries(block: Uint8Array): Array<[string, Uint8Array]> {
  if (block.length < 4) throw new TableError("a table block is cut short");
  const restarts = new DataView(block.buffer, block.byteOffset, block.byteLength).getUint32(block.length - 4, true);
  const end = block.length - 4 - 4 * restarts;
  if (end < 0) throw new TableError("a table block's restart array runs past its start");
  const out: Array<[string, Uint8Array]> = [];
  let key = new Uint8Array(0);
  for (let p = 0; p < end; ) {
    const [shared, a] = varint(block, p);
    const [unshared, b] = varint(block, a);
    const [valueLength, c] = varint(block, b);
    if (c + unshared + valueLength > end || shared > key.length) throw new TableError("a table entry runs past its block");
    key = Uint8Array.from([...key.subarray(0, shared), ...block.subarray(c, c + unshared)]);
    out.push([new TextDecoder().decode(key), block.subarray(c + unshared, c + unshared + valueLength)]);
    p = c + unshared + valueLength;
  }
  return out;
}

async function readBlock(fh: FileHandle, size: number, handle: Uint8Array): Promise<Uint8Array> {
  const [offset, a] = varint(handle, 0);
  const [length] = varint(handle, a);
  if (offset + length + 5 > size || length > MAX_INDEX_BYTES) throw new TableError(`a block at ${offset} (${length} bytes) lies outside the index`);
  const block = await readBytes(fh, offset, length + 1);
  if (block[length] !== 0) throw new TableError(`a block is compressed (type ${block[length]}), which this reader does not decode`);
  return block.subarray(0, length);
}

/** A BundleEntryProto as a tensor placed in its shard (`shards[shard_id]`). */
function entryTensor(name: string, value: Uint8Array, shards: readonly string[]): ScannedTensor | null {
  let dtype = 0;
  let shard = 0;
  let offset = 0;
  let size = 0;
  let sliced = false;
  const shape: number[] = [];
  for (const f of messageFields(value)) {
    if (f.field === ENTRY.dtype) dtype = Number(f.varint);
    else if (f.field === ENTRY.shard) shard = Number(f.varint);
    else if (f.field === ENTRY.offset) offset = Number(f.varint);
    else if (f.field === ENTRY.size) size = Number(f.varint);
    else if (f.field === ENTRY.slices) sliced = true;
    else if (f.field === ENTRY.shape) {
      // TensorShapeProto: dim (2) → TensorShapeProto.Dim: size (1).
      for (const d of messageFields(value.subarray(f.start, f.end), f.start)) {
        if (d.field !== 2) continue;
        for (const s of messageFields(value.subarray(d.start, d.end), d.start)) if (s.field === 1) shape.push(...varintsOf(value.subarray(s.start, s.end), s).map(Number));
      }
    }
  }
  // Partitioned variables' slices, and DT_STRING entries (the object graph), are not weights.
  if (sliced || dtype === DT_STRING) return null;
  const type = TF_DTYPES[dtype] ?? null;
  const numel = shape.reduce((a, b) => a * b, 1);
  const fits = type !== null && tensorBytes(type, numel) === size && shards[shard] !== undefined;
  return {
    name: `variables/${name}`, dtype: type, rawDtype: type ?? `tf_dtype_${dtype}`, shape, numel,
    byteRange: fits ? [offset, offset + size] : null, stats: null, group: /OPTIMIZER_SLOT|^optimizer\//.test(name) ? "optimizer" : "model",
    ...(fits ? { file: shards[shard] } : {}),
  };
}

/** Reads `variables/variables.index` beside a saved_model.pb, when there is one. */
export async function readSavedModelVariables(savedModelPath: string): Promise<Pick<FormatContents, "tensors" | "issues">> {
  const index = join(dirname(savedModelPath), "variables", "variables.index");
  const size = await stat(index).then((s) => s.size, () => null);
  if (size === null) return { tensors: [], issues: [] };
  const fh = await open(index, "r");
  const issues: IntegrityIssue[] = [];
  const tensors: ScannedTensor[] = [];
  try {
    if (size < FOOTER_BYTES) throw new TableError(`the index has ${size} bytes, less than a table footer`);
    const footer = await readBytes(fh, size - FOOTER_BYTES, FOOTER_BYTES);
    if (new DataView(footer.buffer, footer.byteOffset).getBigUint64(40, true) !== TABLE_MAGIC) throw new TableError("the index does not end with the table magic number: it is truncated or not a TensorBundle");
    const [, afterMeta] = varint(footer, varint(footer, 0)[1]);
    const entries: Array<[string, Uint8Array]> = [];
    for (const [, handle] of blockEntries(await readBlock(fh, size, footer.subarray(afterMeta)))) entries.push(...blockEntries(await readBlock(fh, size, handle)));
    // The entry under the empty key is the BundleHeaderProto: num_shards (1).
    const header = entries.find(([k]) => k === "");
    const numShards = header ? Number([...messageFields(header[1])].find((f) => f.field === 1)?.varint ?? 1n) : 1;
    const shards = Array.from({ length: numShards }, (_, i) => join(dirname(index), `variables.data-${String(i).padStart(5, "0")}-of-${String(numShards).padStart(5, "0")}`));
    for (const [key, value] of entries) {
      if (key === "") continue;
      const t = entryTensor(key, value, shards);
      if (t) tensors.push(t);
    }
  } catch (err) {
    if (!(err instanceof TableError || err instanceof ProtoError)) throw err;
    issues.push({ kind: "unreadable", detail: `variables/variables.index: ${err.message}` });
  } finally {
    await fh.close();
  }
  return { tensors, issues };
}
