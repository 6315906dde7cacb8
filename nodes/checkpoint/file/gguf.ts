import type { FileHandle } from "node:fs/promises";
import { FileCursor, HeaderError } from "./file-cursor.js";
import { GGML_TYPES, GGUF_ARRAY, GGUF_FILE_TYPES, GGUF_SCALAR_BYTES, GGUF_STRING } from "./gguf-types.js";
import type { FormatContents, IntegrityIssue, ScannedTensor } from "./scan-types.js";

/** Header bytes accepted (a large vocabulary takes tens of MB); counts beyond these are no real file. */
const MAX_HEADER_BYTES = 512 << 20;
const MAX_COUNT = 1 << 24;
const MAX_STRING = 64 << 20;
/** Metadata keys kept as header facts (`<arch>.context_length` is found by its suffix). */
const KEPT_KEYS = new Set(["general.architecture", "general.name", "general.file_type", "general.quantization_version", "general.alignment"]);

async function ggufString(c: FileCursor): Promise<string> {
  const n = await c.u64();
  if (n > MAX_STRING) throw new HeaderError(`a string of ${n} bytes at byte ${c.pos - 8}`, false);
  return new TextDecoder().decode(await c.bytes(n));
}

const SCALAR_READERS: Record<number, (v: DataView, at: number) => number | bigint> = {
  0: (v, a) => v.getUint8(a), 1: (v, a) => v.getInt8(a), 2: (v, a) => v.getUint16(a, true), 3: (v, a) => v.getInt16(a, true),
  4: (v, a) => v.getUint32(a, true), 5: (v, a) => v.getInt32(a, true), 6: (v, a) => v.getFloat32(a, true), 7: (v, a) => v.getUint8(a),
  10: (v, a) => v.getBigUint64(a, true), 11: (v, a) => v.getBigInt64(a, true), 12: (v, a) => v.getFloat64(a, true),
};

/** One metadata value: scalars and strings as text, arrays skipped (only their length kept). */
async function ggufValue(c: FileCursor, type: number): Promise<string> {
  if (type === GGUF_STRING) return ggufString(c);
  if (type === GGUF_ARRAY) {
    const itemType = await c.u32();
    const n = await c.u64();
    if (n > MAX_HEADER_BYTES) throw new HeaderError(`an array of ${n} items`, false);
    const size = GGUF_SCALAR_BYTES.get(itemType);
    if (size !== undefined) await c.skip(n * size);
    else for (let i = 0; i < n; i++) await ggufValue(c, itemType);
    return `[${n} items]`;
  }
  const size = GGUF_SCALAR_BYTES.get(type);
  if (size === undefined) throw new HeaderError(`metadata value type ${type} is not a GGUF type`, false);
  return String(await c.scalar(size, SCALAR_READERS[type]!));
}

/**
 * Reads a GGUF file's header (spec: gguf-py and llama.cpp `docs/gguf.md`): version, key-value metadata (architecture,
 * context length, file type, name), and the tensor infos, each tensor's bytes placed at the aligned data section
 * plus its offset. Tensors whose bytes run past the end of the file are reported, not read.
 */
export async function readGguf(fh: FileHandle, fileSize: number): Promise<FormatContents> {
  const c = new FileCursor(fh, fileSize, MAX_HEADER_BYTES);
  const metadata: Record<string, string> = {};
  const issues: IntegrityIssue[] = [];
  const tensors: ScannedTensor[] = [];
  try {
    await c.u32(); // "GGUF"
    const version = await c.u32();
    metadata["gguf.version"] = String(version);
    if (version < 1 || version > 3) throw new HeaderError(`GGUF version ${version} is not 1, 2 or 3`, false);
    const count = () => (version === 1 ? c.u32() : c.u64());
    const tensorCount = await count();
    const kvCount = await count();
    if (tensorCount > MAX_COUNT || kvCount > MAX_COUNT) throw new HeaderError(`${tensorCount} tensors and ${kvCount} metadata keys is no real header`, false);
    for (let i = 0; i < kvCount; i++) {
      const key = await ggufString(c);
      const value = await ggufValue(c, await c.u32());
      if (KEPT_KEYS.has(key) || key.endsWith(".context_length")) metadata[key] = value;
    }
    const fileType = GGUF_FILE_TYPES.get(Number(metadata["general.file_type"]));
    if (fileType) metadata["general.file_type"] = fileType;
    const infos: Array<{ name: string; dims: number[]; type: number; offset: number }> = [];
    for (let i = 0; i < tensorCount; i++) {
      const name = await ggufString(c);
      const nDims = await c.u32();
      if (nDims > 8) throw new HeaderError(`tensor ${name} has ${nDims} dimensions`, false);
      const dims: number[] = [];
      for (let d = 0; d < nDims; d++) dims.push(await c.u64());
      infos.push({ name, dims, type: await c.u32(), offset: await c.u64() });
    }
    const alignment = Number(metadata["general.alignment"] ?? 32) || 32;
    const dataStart = Math.ceil(c.pos / alignment) * alignment;
    const typeCounts = new Map<string, number>();
    for (const info of infos) {
      const type = GGML_TYPES.get(info.type);
      const numel = info.dims.reduce((a, b) => a * b, 1);
      const rawDtype = type?.name ?? `ggml_type_${info.type}`;
      typeCounts.set(rawDtype, (typeCounts.get(rawDtype) ?? 0) + 1);
      const start = dataStart + info.offset;
      const end = type ? start + Math.ceil(numel / type.block) * type.bytes : null;
      if (end !== null && end > fileSize) {
        issues.push({ kind: "truncated", detail: `tensor ${info.name} (${rawDtype}) needs bytes up to ${end} but the file has ${fileSize}`, expectedBytes: end, actualBytes: fileSize });
      } else if (info.offset % alignment !== 0) {
        issues.push({ kind: "bad_header", detail: `tensor ${info.name}'s offset ${info.offset} is not a multiple of the alignment ${alignment}` });
      }
      // ggml lists dimensions fastest first; the shape is written as numpy and torch write it, rows first.
      tensors.push({
        name: info.name, dtype: type?.dtype ?? null, rawDtype, shape: [...info.dims].reverse(), numel,
        byteRange: end !== null && type?.dtype ? [start, end] : null, stats: null, group: "model",
      });
    }
    metadata["gguf.tensor_types"] = [...typeCounts].map(([t, n]) => `${t}×${n}`).join(", ");
  } catch (err) {
    if (!(err instanceof HeaderError)) throw err;
    issues.push(err.truncated
      ? { kind: "truncated", detail: `GGUF header: ${err.message}`, actualBytes: fileSize }
      : { kind: "bad_header", detail: `GGUF header: ${err.message}` });
  }
  return { tensors, metadata, issues, loadCode: [] };
}
