import type { FileHandle } from "node:fs/promises";
import { type DType, isDType, tensorBytes } from "./dtypes.js";
import { readBytes } from "./range-reader.js";
import type { IntegrityIssue, ScannedTensor } from "./scan-types.js";
import { isRecord } from "../../../artifacts/json-values.js";

/** safetensors' own cap on the JSON header (`MAX_HEADER_SIZE`), checked before the header is read. */
export const MAX_SAFETENSORS_HEADER = 100_000_000;

export interface SafetensorsHeader {
  tensors: ScannedTensor[];
  /** `__metadata__`: string values only, as the format requires. */
  metadata: Record<string, string>;
  issues: IntegrityIssue[];
}

/** The declared header length (u64 little-endian), or null when fewer than 8 bytes were read. */
export function declaredHeaderLength(head: Uint8Array): number | null {
  if (head.length < 8) return null;
  return Number(new DataView(head.buffer, head.byteOffset, head.byteLength).getBigUint64(0, true));
}

/**
 * Whether the first bytes look like safetensors: `strict` needs a header length within the cap and the file
 * and a `{` after it; the loose form (`{"` at byte 8, any length) catches files whose header length is broken.
 */
export function looksLikeSafetensors(head: Uint8Array, fileSize: number, strict: boolean): boolean {
  const n = declaredHeaderLength(head);
  if (n === null || head[8] !== 0x7b) return false;
  return strict ? n >= 2 && n <= MAX_SAFETENSORS_HEADER && n + 8 <= fileSize : head[9] === 0x22;
}


/** Reads and checks the header; offsets must tile the data buffer exactly (FORMATS.md §6.1). */
export async function readSafetensorsHeader(fh: FileHandle, fileSize: number, headerLength: number): Promise<SafetensorsHeader> {
  if (headerLength > MAX_SAFETENSORS_HEADER) {
    return { tensors: [], metadata: {}, issues: [{ kind: "bad_header", detail: `safetensors header length ${headerLength} exceeds the ${MAX_SAFETENSORS_HEADER}-byte cap: refused unread` }] };
  }
  if (headerLength + 8 > fileSize) {
    return { tensors: [], metadata: {}, issues: [{ kind: "truncated", detail: `safetensors header of ${headerLength} bytes runs past the end of the ${fileSize}-byte file`, expectedBytes: headerLength + 8, actualBytes: fileSize }] };
  }
  const raw = await readBytes(fh, 8, headerLength);
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(raw));
  } catch (err) {
    throw new Error(`safetensors header is not valid UTF-8 JSON: ${(err as Error).message}`);
  }
  if (!isRecord(parsed)) throw new Error("safetensors header is not a JSON object");
  const dataStart = 8 + headerLength;
  const bufferLength = fileSize - dataStart;
  const issues: IntegrityIssue[] = [];
  const tensors: ScannedTensor[] = [];
  const metadata: Record<string, string> = {};
  for (const [name, entry] of Object.entries(parsed)) {
    if (name === "__metadata__") {
      if (isRecord(entry)) for (const [k, v] of Object.entries(entry)) if (typeof v === "string") metadata[k] = v;
      continue;
    }
    const tensor = readEntry(name, entry, dataStart, issues);
    if (tensor) tensors.push(tensor);
  }
  checkCoverage(tensors, dataStart, bufferLength, issues);
  return { tensors, metadata, issues };
}

function readEntry(name: string, entry: unknown, dataStart: number, issues: IntegrityIssue[]): ScannedTensor | null {
  if (!isRecord(entry)) {
    issues.push({ kind: "bad_header", detail: `tensor "${name}" has no descriptor object` });
    return null;
  }
  const { dtype, shape, data_offsets: offsets } = entry;
  const shapeOk = Array.isArray(shape) && shape.every((d) => Number.isInteger(d) && d >= 0);
  const offsetsOk = Array.isArray(offsets) && offsets.length === 2 && offsets.every((o) => Number.isInteger(o) && o >= 0) && offsets[0] <= offsets[1];
  if (typeof dtype !== "string" || !isDType(dtype) || !shapeOk || !offsetsOk) {
    issues.push({ kind: "bad_header", detail: `tensor "${name}" has an invalid dtype, shape or data_offsets` });
    return null;
  }
  const dims = shape as number[];
  const [begin, end] = offsets as [number, number];
  const numel = dims.reduce((a, b) => a * b, 1);
  if (end - begin !== tensorBytes(dtype as DType, numel)) {
    issues.push({ kind: "size_mismatch", detail: `tensor "${name}" spans ${end - begin} bytes but ${dtype}${JSON.stringify(dims)} needs ${tensorBytes(dtype as DType, numel)}` });
  }
  return { name, dtype: dtype as DType, rawDtype: dtype, shape: dims, numel, byteRange: [dataStart + begin, dataStart + end], stats: null, group: "model" };
}

/** Holes, overlaps and a buffer that is shorter (truncated) or longer than the tensors need. */
function checkCoverage(tensors: readonly ScannedTensor[], dataStart: number, bufferLength: number, issues: IntegrityIssue[]): void {
  const spans = tensors.map((t) => [t.byteRange![0] - dataStart, t.byteRange![1] - dataStart] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let covered = 0;
  for (const [begin, end] of spans) {
    if (begin > covered) issues.push({ kind: "hole", detail: `bytes ${covered}–${begin} of the data buffer belong to no tensor` });
    else if (begin < covered) issues.push({ kind: "overlap", detail: `a tensor at bytes ${begin}–${end} overlaps the previous one (ends at ${covered})` });
    covered = Math.max(covered, end);
  }
  if (covered > bufferLength) {
    issues.push({ kind: "truncated", detail: `tensors need ${covered} data bytes but the file holds ${bufferLength}`, expectedBytes: covered + dataStart, actualBytes: bufferLength + dataStart });
  } else if (covered < bufferLength) {
    issues.push({ kind: "trailing", detail: `${bufferLength - covered} bytes after the last tensor belong to no tensor` });
  }
}
