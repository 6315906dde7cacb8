import { compressionOf } from "./decompress.js";
import { startsWithNpyMagic } from "./npy.js";
import { looksLikeOnnx } from "./onnx-sniff.js";
import { looksLikeSafetensors } from "./safetensors.js";
import type { CheckpointFormat } from "./scan-types.js";

/** Bytes the sniffer looks at (a protobuf's first fields need a few dozen). */
export const SNIFF_BYTES = 64;

/** PROTO 2, LONG1 of 10 bytes: torch's legacy magic number 0x1950a86a20f9469cfc6c, little-endian. */
const LEGACY_TORCH = [0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19];
/** First opcodes of protocol 0/1 pickles: MARK, EMPTY_DICT/LIST/TUPLE, GLOBAL, (BIN)PERSID, INST. */
const PROTOCOL0_FIRST = new Set([0x28, 0x7d, 0x5d, 0x29, 0x63, 0x50, 0x69, 0x4e, 0x49, 0x4a, 0x4b, 0x53, 0x56, 0x58]);
/** The HDF5 superblock signature (Keras .h5 / .weights.h5 and the weights inside a .keras archive). */
const HDF5 = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a];

/** Compressed containers, by magic number: 7z, gzip, xz, bzip2, zstd, rar, lz4 frame (gzip and zlib are opened). */
const UNOPENED_ARCHIVES: ReadonlyArray<readonly number[]> = [
  [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], [0x1f, 0x8b], [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], [0x42, 0x5a, 0x68],
  [0x28, 0xb5, 0x2f, 0xfd], [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07], [0x04, 0x22, 0x4d, 0x18],
];

const startsWith = (head: Uint8Array, sig: readonly number[]) => sig.every((b, i) => head[i] === b);

/** PROTO 0–5 first: how every pickle of protocol 2 or later starts, whatever the file is called. */
export const looksLikePickle = (head: Uint8Array) => head[0] === 0x80 && (head[1] ?? 99) <= 5;

/** The first byte of a protocol 0/1 pickle: a guess only, to be confirmed by reading the stream. */
export const mayBeProtocol0Pickle = (head: Uint8Array) => head[0] !== undefined && PROTOCOL0_FIRST.has(head[0]);

/** One row of the format table: a test on the first SNIFF_BYTES bytes, the file's size and (only to break a tie) its name. */
interface FormatRow {
  format: CheckpointFormat;
  test: (head: Uint8Array, fileSize: number, fileName: string) => boolean;
}

/**
 * Every format the checkpoint scan and the client's folder walk recognize, in the order they are tried: adding a
 * format is adding a row. Recognition is by content (FORMATS.md §6); a name only breaks a protocol-0 tie. A zip is
 * told apart later (torch archive, Keras v3 archive, other) by its entries.
 */
const FORMAT_TABLE: readonly FormatRow[] = [
  // A plausible safetensors header comes first: its length's low byte may well be 0x80 or "P".
  { format: "safetensors", test: (head, size) => looksLikeSafetensors(head, size, true) },
  { format: "zip", test: (head) => startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06]) },
  { format: "torch_legacy", test: (head) => startsWith(head, LEGACY_TORCH) },
  { format: "gguf", test: (head) => startsWith(head, [0x47, 0x47, 0x55, 0x46]) },
  { format: "hdf5", test: (head) => startsWith(head, HDF5) },
  { format: "npy", test: (head) => startsWithNpyMagic(head) },
  { format: "archive", test: (head) => UNOPENED_ARCHIVES.some((sig) => startsWith(head, sig)) || compressionOf(head) === "zlib" },
  { format: "pickle", test: (head) => looksLikePickle(head) },
  { format: "safetensors", test: (head, size) => looksLikeSafetensors(head, size, false) },
  // Protobufs have no magic number: their first fields' numbers, wire types and lengths must fit the schema.
  { format: "savedmodel", test: (head, size) => looksLikeOnnx(head, size) === "savedmodel" },
  { format: "onnx", test: (head, size) => looksLikeOnnx(head, size) === "onnx" },
  { format: "pickle", test: (head, _size, name) => mayBeProtocol0Pickle(head) && /\.(pkl|pickle|joblib|pt|pth|bin|ckpt|dat|data)$/i.test(name) },
];

/** The format, told by content and never by extension (FORMATS.md §6); the extension only breaks a protocol-0 tie. */
export function sniffFormat(head: Uint8Array, fileSize: number, fileName: string): CheckpointFormat {
  return FORMAT_TABLE.find((row) => row.test(head, fileSize, fileName))?.format ?? "unknown";
}
