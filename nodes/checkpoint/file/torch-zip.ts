import type { FileHandle } from "node:fs/promises";
import { tensorBytes } from "./dtypes.js";
import { type PickleReport, scanPickles } from "./pickle-scan.js";
import type { PyValue } from "./pickle-values.js";
import { MAX_NPY_HEADER, parseNpyHeader, startsWithNpyMagic } from "./npy.js";
import type { IntegrityIssue, ScannedTensor, UnverifiedContent } from "./scan-types.js";
import { looksLikePickle, mayBeProtocol0Pickle } from "./sniff.js";
import { collectTorchTensors, spanOf, type TorchTensorRef } from "./torch-tensors.js";
import { claimsEncryption, entryDataOffset, isDecompressible, readZipDirectory, readZipEntry, readZipEntryHead, type ZipEntry, ZipFormatError } from "./zip.js";

/** Largest pickle the scan reads into memory (data.pkl holds the structure, never tensor data). */
export const MAX_PICKLE_BYTES = 256 << 20;

/** What a zip archive holds: its pickles' safety reports and, for torch archives, the object and its tensors. */
export interface ArchiveContents {
  isTorch: boolean;
  root: PyValue | null;
  pickles: PickleReport[];
  tensors: ScannedTensor[];
  issues: IntegrityIssue[];
  unverified: UnverifiedContent[];
}

const isPickleEntry = (name: string) => /(\.pkl|_pkl|\.pickle)$/.test(name);

/** Entries whose content is inspected; an archive with more is reported as not fully verified. */
const MAX_INSPECTED_ENTRIES = 4096;
/** Bytes read from an entry to recognize a pickle or an .npy header (numpy pads its header to 64-byte multiples). */
const HEAD_BYTES = 1024;

/** The archive's top folder, from its first entry (`model/` when saved to model.pt, `archive/` from a buffer). */
function topFolder(entries: readonly ZipEntry[]): string {
  const first = entries[0]?.name ?? "";
  const slash = first.indexOf("/");
  return slash >= 0 ? first.slice(0, slash + 1) : "";
}

/** Where an entry's pickle starts, and whether the entry surely is one (else the stream must confirm it). */
interface PickleStart {
  offset: number;
  certain: boolean;
}

/**
 * Where an entry's pickle starts, or null when it holds none: a pickle by name (torch's data.pkl), by content
 * (a pickle under any name or extension: `data.txt` fools no one), or an .npy object array (`.npz` members), whose
 * elements numpy pickles after the header. A protocol 0/1 pickle has no PROTO opcode: its first byte makes it a
 * candidate that only a clean read (or an import) confirms.
 */
async function pickleStart(fh: FileHandle, entry: ZipEntry): Promise<PickleStart | null> {
  // Behind the encryption flag only the content can tell a plain pickle from ciphertext.
  if (isPickleEntry(entry.name) && !claimsEncryption(entry)) return { offset: 0, certain: true };
  const head = await readZipEntryHead(fh, entry, HEAD_BYTES);
  if (startsWithNpyMagic(head)) {
    const header = parseNpyHeader(head) ?? parseNpyHeader(await readZipEntryHead(fh, entry, MAX_NPY_HEADER));
    return header?.holdsPickle ? { offset: header.dataOffset, certain: true } : null;
  }
  if (looksLikePickle(head)) return { offset: 0, certain: true };
  return mayBeProtocol0Pickle(head) ? { offset: 0, certain: false } : null;
}

/**
 * Reads a zip: every entry that holds a pickle is scanned (torch's tensor storages aside: torch.load never
 * unpickles them); a torch archive's data.pkl gives the tensor table. Entries that cannot be read (encrypted,
 * unknown compression, oversized) are listed as unverified.
 */
export async function readTorchZip(fh: FileHandle, fileSize: number): Promise<ArchiveContents> {
  let entries: ZipEntry[];
  try {
    entries = await readZipDirectory(fh, fileSize);
  } catch (err) {
    if (!(err instanceof ZipFormatError)) throw err;
    return { isTorch: false, root: null, pickles: [], tensors: [], issues: [{ kind: "truncated", detail: err.message }], unverified: [] };
  }
  const prefix = topFolder(entries);
  const byName = new Map(entries.map((e) => [e.name, e]));
  const isTorch = byName.has(`${prefix}data.pkl`);
  const pickles: PickleReport[] = [];
  const issues: IntegrityIssue[] = [];
  const unverified: UnverifiedContent[] = [];
  let root: PyValue | null = null;
  const files = entries.filter((e) => !e.name.endsWith("/") && !(isTorch && e.name.startsWith(`${prefix}data/`)));
  if (files.length > MAX_INSPECTED_ENTRIES) {
    unverified.push({ entry: `${files.length - MAX_INSPECTED_ENTRIES} entries`, reason: `the archive has more than the ${MAX_INSPECTED_ENTRIES} entries the scan inspects` });
  }
  for (const entry of files.slice(0, MAX_INSPECTED_ENTRIES)) {
    if (!isDecompressible(entry)) {
      unverified.push({ entry: entry.name, reason: `it uses zip compression method ${entry.method}, which the scan cannot decompress` });
      continue;
    }
    try {
      // An entry flagged as encrypted is still read as it is stored: a plain pickle behind the flag is scanned.
      const start = await pickleStart(fh, entry);
      const read = start && scanPickles((await readZipEntry(fh, entry, MAX_PICKLE_BYTES)).subarray(start.offset), entry.name);
      // A guessed protocol-0 start that neither reads cleanly nor imports anything is text, not a pickle.
      if (!read || (!start.certain && read.report.error !== null && read.report.globals.length === 0)) {
        if (claimsEncryption(entry)) unverified.push({ entry: entry.name, reason: "it is encrypted (password-protected zip)" });
        continue;
      }
      const { report, reads } = read;
      pickles.push(report);
      if (entry.name === `${prefix}data.pkl`) root = reads[0]?.value ?? null;
    } catch (err) {
      if (!(err instanceof ZipFormatError)) throw err;
      issues.push({ kind: "unreadable", detail: err.message });
      unverified.push({ entry: entry.name, reason: `it could not be read (${err.message})` });
    }
  }
  const tensors = isTorch && root !== null ? await placeTensors(fh, fileSize, collectTorchTensors(root), prefix, byName, issues) : [];
  return { isTorch, root, pickles, tensors, issues, unverified };
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
