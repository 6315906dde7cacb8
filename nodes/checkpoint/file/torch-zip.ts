import type { FileHandle } from "node:fs/promises";
import { tensorBytes } from "./dtypes.js";
import { type PickleReport, scanPickles } from "./pickle-scan.js";
import type { PyValue } from "./pickle-values.js";
import type { IntegrityIssue, ScannedTensor } from "./scan-types.js";
import { collectTorchTensors, spanOf, type TorchTensorRef } from "./torch-tensors.js";
import { entryDataOffset, readZipDirectory, readZipEntry, type ZipEntry, ZipFormatError } from "./zip.js";

/** Largest pickle the scan reads into memory (data.pkl holds the structure, never tensor data). */
export const MAX_PICKLE_BYTES = 256 << 20;

/** What a zip archive holds: its pickles' safety reports and, for torch archives, the object and its tensors. */
export interface ArchiveContents {
  isTorch: boolean;
  root: PyValue | null;
  pickles: PickleReport[];
  tensors: ScannedTensor[];
  issues: IntegrityIssue[];
}

const isPickleEntry = (name: string) => /(\.pkl|_pkl|\.pickle)$/.test(name);

/** The archive's top folder, from its first entry (`model/` when saved to model.pt, `archive/` from a buffer). */
function topFolder(entries: readonly ZipEntry[]): string {
  const first = entries[0]?.name ?? "";
  const slash = first.indexOf("/");
  return slash >= 0 ? first.slice(0, slash + 1) : "";
}

/** Reads a zip: every pickle entry is scanned; a torch archive's data.pkl gives the tensor table. */
export async function readTorchZip(fh: FileHandle, fileSize: number): Promise<ArchiveContents> {
  let entries: ZipEntry[];
  try {
    entries = await readZipDirectory(fh, fileSize);
  } catch (err) {
    if (!(err instanceof ZipFormatError)) throw err;
    return { isTorch: false, root: null, pickles: [], tensors: [], issues: [{ kind: "truncated", detail: err.message }] };
  }
  const prefix = topFolder(entries);
  const byName = new Map(entries.map((e) => [e.name, e]));
  const pickles: PickleReport[] = [];
  const issues: IntegrityIssue[] = [];
  let root: PyValue | null = null;
  for (const entry of entries.filter((e) => isPickleEntry(e.name))) {
    try {
      const bytes = await readZipEntry(fh, entry, MAX_PICKLE_BYTES);
      const { report, reads } = scanPickles(bytes, entry.name);
      pickles.push(report);
      if (entry.name === `${prefix}data.pkl`) root = reads[0]?.value ?? null;
    } catch (err) {
      if (!(err instanceof ZipFormatError)) throw err;
      issues.push({ kind: "unreadable", detail: err.message });
    }
  }
  const isTorch = byName.has(`${prefix}data.pkl`);
  const tensors = isTorch && root !== null ? await placeTensors(fh, fileSize, collectTorchTensors(root), prefix, byName, issues) : [];
  return { isTorch, root, pickles, tensors, issues };
}

/** Finds each tensor's bytes inside its `data/<key>` entry. */
async function placeTensors(
  fh: FileHandle,
  fileSize: number,
  refs: readonly TorchTensorRef[],
  prefix: string,
  byName: ReadonlyMap<string, ZipEntry>,
  issues: IntegrityIssue[],
): Promise<ScannedTensor[]> {
  const offsets = new Map<string, number>();
  const out: ScannedTensor[] = [];
  for (const ref of refs) {
    const numel = ref.shape.reduce((a, b) => a * b, 1);
    const tensor: ScannedTensor = {
      name: ref.name, dtype: ref.dtype, rawDtype: ref.storageType, shape: ref.shape, numel, byteRange: null, stats: null,
      group: ref.group, storage: `${ref.storageKey}@${ref.offset}`, requiresGrad: ref.requiresGrad,
    };
    out.push(tensor);
    const entry = byName.get(`${prefix}data/${ref.storageKey}`);
    if (!entry) {
      issues.push({ kind: "missing_storage", detail: `storage ${ref.storageKey} of ${ref.name} is not in the archive` });
      continue;
    }
    if (!ref.dtype || entry.method !== 0 || spanOf(ref) !== numel) continue;
    let dataOffset = offsets.get(entry.name);
    if (dataOffset === undefined) {
      dataOffset = await entryDataOffset(fh, entry);
      offsets.set(entry.name, dataOffset);
    }
    const start = dataOffset + tensorBytes(ref.dtype, ref.offset);
    const end = start + tensorBytes(ref.dtype, numel);
    if (end > dataOffset + entry.size || end > fileSize) {
      issues.push({ kind: "truncated", detail: `${ref.name} needs bytes up to ${end} but its storage or the file ends earlier`, expectedBytes: end, actualBytes: fileSize });
      continue;
    }
    tensor.byteRange = [start, end];
  }
  return out;
}
