import type { FileHandle } from "node:fs/promises";
import { type DType, tensorBytes } from "./dtypes.js";
import { scanPickles } from "./pickle-scan.js";
import { PyTuple } from "./pickle-values.js";
import { readBytes } from "./range-reader.js";
import type { IntegrityIssue, ScannedTensor } from "./scan-types.js";
import type { ArchiveContents } from "./torch-zip.js";
import { MAX_PICKLE_BYTES } from "./torch-zip.js";
import { collectTorchTensors, spanOf } from "./torch-tensors.js";

/** Pickles at the head of a legacy file: magic, protocol, sys_info, the object, the storage keys. */
const LEGACY_PICKLES = 5;

/**
 * Reads a legacy (pre-1.6, non-zip) torch file: five pickles in a row, then each storage in the order of the
 * key list as an int64 element count followed by its raw bytes (torch/serialization.py `_legacy_save`).
 */
export async function readLegacyTorch(fh: FileHandle, fileSize: number, name: string): Promise<ArchiveContents> {
  let prefixLength = Math.min(fileSize, 16 << 20);
  for (;;) {
    const bytes = await readBytes(fh, 0, prefixLength);
    const { report, reads } = scanPickles(bytes, name, { maxPickles: LEGACY_PICKLES, partial: prefixLength < fileSize });
    const complete = reads.length === LEGACY_PICKLES && reads.every((r) => !r.error);
    if (!complete && prefixLength < Math.min(fileSize, MAX_PICKLE_BYTES)) {
      prefixLength = Math.min(fileSize, MAX_PICKLE_BYTES, prefixLength * 4);
      continue;
    }
    const root = reads[3]?.value ?? null;
    const issues: IntegrityIssue[] = [];
    if (!complete) issues.push({ kind: "truncated", detail: `the legacy torch header (five pickles) ends early: ${report.error ?? "pickles missing"}` });
    const keysValue = reads[4]?.value;
    const keys = Array.isArray(keysValue) ? keysValue.map(String) : keysValue instanceof PyTuple ? keysValue.items.map(String) : [];
    const tensors = complete && root !== null ? await placeLegacyTensors(fh, fileSize, root, keys, reads[4]!.end, issues) : [];
    return { isTorch: true, root, pickles: [{ ...report, partial: report.partial && !complete }], tensors, issues, unverified: [] };
  }
}

async function placeLegacyTensors(
  fh: FileHandle,
  fileSize: number,
  root: Parameters<typeof collectTorchTensors>[0],
  keys: readonly string[],
  dataStart: number,
  issues: IntegrityIssue[],
): Promise<ScannedTensor[]> {
  const refs = collectTorchTensors(root);
  const dtypeByKey = new Map<string, DType>();
  for (const r of refs) if (r.dtype) dtypeByKey.set(r.storageKey, r.dtype);
  // Storage data starts after each storage's int64 element count.
  const storageStart = new Map<string, { start: number; bytes: number }>();
  let pos = dataStart;
  for (const key of keys) {
    const dtype = dtypeByKey.get(key);
    const head = await readBytes(fh, pos, 8);
    if (!dtype || head.length < 8) {
      if (head.length < 8) issues.push({ kind: "truncated", detail: `storage ${key} starts past the end of the file`, expectedBytes: pos + 8, actualBytes: fileSize });
      break;
    }
    const count = Number(new DataView(head.buffer, head.byteOffset, 8).getBigInt64(0, true));
    const bytes = tensorBytes(dtype, count);
    storageStart.set(key, { start: pos + 8, bytes });
    pos += 8 + bytes;
  }
  if (pos > fileSize) issues.push({ kind: "truncated", detail: `storages need ${pos} bytes but the file holds ${fileSize}`, expectedBytes: pos, actualBytes: fileSize });
  return refs.map((ref) => {
    const numel = ref.shape.reduce((a, b) => a * b, 1);
    const where = storageStart.get(ref.storageKey);
    const placed = where && ref.dtype && spanOf(ref) === numel;
    const start = placed ? where.start + tensorBytes(ref.dtype!, ref.offset) : 0;
    const end = start + (ref.dtype ? tensorBytes(ref.dtype, numel) : 0);
    const inside = placed && end <= where.start + where.bytes && end <= fileSize;
    return {
      name: ref.name, dtype: ref.dtype, rawDtype: ref.storageType, shape: ref.shape, numel,
      byteRange: inside ? ([start, end] as [number, number]) : null, stats: null, group: ref.group,
      storage: `${ref.storageKey}@${ref.offset}`, requiresGrad: ref.requiresGrad,
    };
  });
}
