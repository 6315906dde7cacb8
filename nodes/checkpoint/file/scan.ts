import { type FileHandle, open } from "node:fs/promises";
import { basename } from "node:path";
import { type Compression, compressionOf, decompressHead } from "./decompress.js";
import { isFloatDType, tensorBytes } from "./dtypes.js";
import { isKerasArchive, readKerasArchive } from "./keras-archive.js";
import { readLightningState } from "./lightning.js";
import { MODEL_FILE_FORMATS, readModelFile } from "./model-formats.js";
import { MAX_NPY_HEADER, npyDType, parseNpyHeader } from "./npy.js";
import { carvePickles, type PickleReport, scanPickles } from "./pickle-scan.js";
import { PyDict, type PyValue } from "./pickle-values.js";
import { type ByteRegion, readBytes, readRegions } from "./range-reader.js";
import { declaredHeaderLength, readSafetensorsHeader } from "./safetensors.js";
import type { CheckpointScan, FormatContents, IntegrityIssue, ScannedTensor } from "./scan-types.js";
import { looksLikePickle, SNIFF_BYTES, sniffFormat } from "./sniff.js";
import { defaultPieces, type ScanSplitter, scanInPieces, SPLIT_MIN_BYTES } from "./split-scan.js";
import { canMeasure } from "./stats-layout.js";
import { TensorStatsAccumulator } from "./tensor-stats.js";
import { readLegacyTorch } from "./torch-legacy.js";
import { trainingStateOf } from "./torch-tensors.js";
import { type ArchiveContents, MAX_PICKLE_BYTES, readTorchZip } from "./torch-zip.js";
import { readZipDirectory } from "./zip.js";

/** Options of `scanCheckpointFile`. */
export interface ScanOptions {
  /** Stops the scan between chunks (the rejection is the signal's reason). */
  signal?: AbortSignal;
  /** Files larger than this are scanned header-only: structure and pickles, no tensor data (tiny tensors aside). */
  maxBytes?: number;
  /** Called after each chunk of tensor data with the bytes read so far and the bytes to read. */
  onProgress?: (progress: { bytesRead: number; bytesTotal: number }) => void;
  /** Read size (default 4 MiB); the scan's only large allocation (two of them per thread reading). */
  chunkBytes?: number;
  /** Splits a large file's tensor data across threads (the worker pool); without it, the data is read here. */
  split?: ScanSplitter;
}

/** Tensors this small are read even in header-only mode (scores, counters, BatchNorm step counts). */
const TINY_TENSOR = 64;

const EMPTY: ArchiveContents = { isTorch: false, root: null, pickles: [], tensors: [], issues: [], unverified: [] };

/** Bytes of an unopenable archive searched for pickles stored in it verbatim. */
const MAX_CARVE_BYTES = 64 << 20;

/**
 * Scans a checkpoint file without executing anything: recognizes the format by content (safetensors, PyTorch
 * zip or any zip such as .npz, legacy torch, pickle, .npy; 7z/gzip/xz… are searched for verbatim pickles and
 * listed as unverified), lists tensors, scans every pickle's imports, reads Lightning state, and streams
 * tensor data once for per-tensor statistics in bounded memory (one chunk buffer, no whole-file reads).
 *
 * `scanCheckpointFile(path, { signal, maxBytes, onProgress, chunkBytes }) → Promise<CheckpointScan>`; rejects
 * with the signal's reason when aborted, and with an Error when the file cannot be opened.
 */
export async function scanCheckpointFile(path: string, options: ScanOptions = {}): Promise<CheckpointScan> {
  const fh = await open(path, "r");
  try {
    const fileSize = (await fh.stat()).size;
    const head = await readBytes(fh, 0, Math.min(fileSize, SNIFF_BYTES));
    const name = basename(path);
    const format = sniffFormat(head, fileSize, name);
    const scan: CheckpointScan = {
      path, format, fileSize, headerOnly: options.maxBytes !== undefined && fileSize > options.maxBytes,
      tensors: [], pickles: [], unverified: [], issues: [], fileMetadata: {}, loadCode: [], topLevelKeys: [], lightning: null, trainingState: null, folder: null, bytesScanned: 0,
    };
    let contents = EMPTY;
    try {
      contents = await readStructure(fh, scan, head, name, options);
    } catch (err) {
      // File-system errors (they carry a code) and aborts propagate; malformed content becomes a finding.
      if (options.signal?.aborted || (err as NodeJS.ErrnoException).code !== undefined) throw err;
      contents = { ...EMPTY, issues: [{ kind: "unreadable", detail: (err as Error).message }] };
    }
    scan.tensors = contents.tensors;
    scan.pickles = contents.pickles;
    scan.unverified = contents.unverified;
    scan.issues = contents.issues;
    scan.topLevelKeys = topLevelKeys(contents.root);
    scan.lightning = contents.root === null ? null : readLightningState(contents.root);
    scan.trainingState = trainingStateOf(contents.root) ?? (importsTrainingArguments(contents.pickles) ? "training_args" : null);
    options.signal?.throwIfAborted();
    scan.bytesScanned = await measureScan(fh, scan, options);
    return scan;
  } finally {
    await fh.close();
  }
}

/** A model-file reader's findings kept on the scan (header facts, load-time code) and handed on as contents. */
function adopt(scan: CheckpointScan, read: FormatContents, base: ArchiveContents = EMPTY): ArchiveContents {
  scan.fileMetadata = read.metadata;
  scan.loadCode = read.loadCode;
  return { ...base, tensors: [...base.tensors, ...read.tensors], issues: [...base.issues, ...read.issues] };
}

/** Reads the format's structure: tensor table, pickles, safetensors metadata, model files' load-time code. */
async function readStructure(fh: FileHandle, scan: CheckpointScan, head: Uint8Array, name: string, options: ScanOptions): Promise<ArchiveContents> {
  const fileSize = scan.fileSize;
  // Values of HDF5 datasets are read by libhdf5 as the structure is walked (a header-only scan reads tiny ones only).
  const hdf5 = { signal: options.signal, chunkBytes: options.chunkBytes, readValues: (numel: number) => !scan.headerOnly || numel <= TINY_TENSOR };
  if (MODEL_FILE_FORMATS.has(scan.format)) return adopt(scan, await readModelFile(scan.format, fh, fileSize, scan.path, hdf5));
  if (scan.format === "safetensors") {
    const header = await readSafetensorsHeader(fh, fileSize, declaredHeaderLength(head)!);
    scan.fileMetadata = header.metadata;
    return { ...EMPTY, tensors: header.tensors, issues: header.issues };
  }
  if (scan.format === "zip") {
    const contents = await readTorchZip(fh, fileSize);
    if (contents.isTorch) scan.format = "torch_zip";
    if (contents.isTorch || contents.issues.length > 0) return contents;
    const entries = await readZipDirectory(fh, fileSize);
    if (!isKerasArchive(entries)) return contents;
    scan.format = "keras";
    return adopt(scan, await readKerasArchive(fh, scan.path, entries, hdf5), contents);
  }
  if (scan.format === "torch_legacy") return readLegacyTorch(fh, fileSize, name);
  if (scan.format === "pickle") {
    const bytes = await readBytes(fh, 0, Math.min(fileSize, MAX_PICKLE_BYTES));
    const { report, reads } = scanPickles(bytes, name, { partial: fileSize > MAX_PICKLE_BYTES });
    // A protocol-0 guess (first byte and extension) that neither reads cleanly nor imports anything is not a
    // pickle, as for zip entries: Python would fail on it before running any code.
    if (!looksLikePickle(head) && report.error !== null && report.globals.length === 0 && report.extCodes.length === 0) {
      scan.format = "unknown";
      return EMPTY;
    }
    return { ...EMPTY, root: reads[0]?.value ?? null, pickles: [report] };
  }
  if (scan.format === "npy") return readNpy(fh, fileSize, name);
  if (scan.format === "archive") {
    const compression = compressionOf(head);
    const decompressed = compression ? await readCompressedPickle(fh, name, compression) : null;
    if (decompressed) {
      scan.format = "pickle";
      return decompressed;
    }
    const pickles = carvePickles(await readBytes(fh, 0, Math.min(fileSize, MAX_CARVE_BYTES)), name);
    const found = pickles.length > 0 ? `; ${pickles.length} pickle(s) stored in it uncompressed were found and checked, others may be compressed` : "";
    return { ...EMPTY, pickles, unverified: [{ entry: name, reason: `it is a compressed archive (7z, xz, bzip2, zstd, lz4 or rar, as joblib.dump(compress=…) also writes) the scan cannot open${found}` }] };
  }
  return EMPTY;
}

/**
 * A gzip or zlib file holding a pickle (joblib.dump(compress=…), `.pkl.gz`): its decompressed stream scanned as
 * joblib.load reads it, entry named `file (zlib)`. Null when what comes out is not a pickle (a .tar.gz…).
 */
async function readCompressedPickle(fh: FileHandle, name: string, compression: Compression): Promise<ArchiveContents | null> {
  const out = await decompressHead(fh, compression, MAX_PICKLE_BYTES);
  if (!looksLikePickle(out.bytes)) return null;
  const { report, reads } = scanPickles(out.bytes, `${name} (${compression})`, { partial: !out.complete });
  return { ...EMPTY, root: reads[0]?.value ?? null, pickles: [report] };
}

/** A NumPy .npy file: an object array's pickle is scanned; a plain little-endian C-order array is one tensor. */
async function readNpy(fh: FileHandle, fileSize: number, name: string): Promise<ArchiveContents> {
  const header = parseNpyHeader(await readBytes(fh, 0, Math.min(fileSize, MAX_NPY_HEADER)));
  if (!header) return { ...EMPTY, issues: [{ kind: "bad_header", detail: ".npy header is cut short or not a header numpy writes" }] };
  if (header.holdsPickle) {
    const bytes = await readBytes(fh, header.dataOffset, Math.min(fileSize - header.dataOffset, MAX_PICKLE_BYTES));
    const { report } = scanPickles(bytes, name, { partial: fileSize - header.dataOffset > MAX_PICKLE_BYTES });
    return { ...EMPTY, pickles: [report] };
  }
  const dtype = npyDType(header);
  if (!dtype || header.fortranOrder) return EMPTY;
  const numel = header.shape.reduce((a, b) => a * b, 1);
  const end = header.dataOffset + tensorBytes(dtype, numel);
  const tensor: ScannedTensor = {
    name: name.replace(/\.npy$/i, ""), dtype, rawDtype: header.descr, shape: header.shape, numel,
    byteRange: end <= fileSize ? [header.dataOffset, end] : null, stats: null, group: "model",
  };
  const issues: IntegrityIssue[] = end > fileSize
    ? [{ kind: "truncated", detail: `the .npy array needs ${end} bytes but the file has ${fileSize}`, expectedBytes: end, actualBytes: fileSize }]
    : [];
  return { ...EMPTY, tensors: [tensor], issues };
}

/** The HF Trainer's `training_args.bin`: a pickled TrainingArguments dataclass (and nothing else of note). */
function importsTrainingArguments(pickles: readonly PickleReport[]): boolean {
  return pickles.some((p) => p.globals.some((g) => g.name.endsWith("TrainingArguments") && g.module.startsWith("transformers.")));
}

function topLevelKeys(root: PyValue | null): string[] {
  return root instanceof PyDict ? root.stringKeys().slice(0, 200) : [];
}

/** Measures the tensors in the scanned file, then those whose bytes lie in files beside it (ONNX external data),
 * whose sizes are added to the scan's: the checkpoint is the model file and its data together. */
async function measureScan(fh: FileHandle, scan: CheckpointScan, options: ScanOptions): Promise<number> {
  let bytes = await measureTensors(fh, scan.path, scan.fileSize, scan.tensors.filter((t) => !t.file), scan.headerOnly, options);
  for (const file of new Set(scan.tensors.flatMap((t) => (t.file ? [t.file] : [])))) {
    const tensors = scan.tensors.filter((t) => t.file === file);
    const other = await open(file, "r");
    try {
      const size = (await other.stat()).size;
      scan.fileSize += size;
      bytes += await measureTensors(other, file, size, tensors, scan.headerOnly, options);
    } finally {
      await other.close();
    }
  }
  return bytes;
}

/** Streams the data of every readable tensor once; tensors sharing the same bytes share one accumulator, which
 * is finished (and its memory released) as soon as its last byte has been read. A large file's data is split
 * across `options.split`'s threads instead, and each tensor's parts merged here. */
async function measureTensors(fh: FileHandle, path: string, fileSize: number, tensors: readonly ScannedTensor[], headerOnly: boolean, options: ScanOptions): Promise<number> {
  interface Group { acc: TensorStatsAccumulator | null; tensors: ScannedTensor[]; region: ByteRegion; units: number | null; received: number }
  const shared = new Map<string, Group>();
  const finish = (g: Group, stats = g.acc!.finish()) => {
    for (const t of g.tensors) t.stats = stats;
    g.acc = null;
  };
  const received = (g: Group, bytes: number) => {
    g.received += bytes;
    if (g.received === g.region.end - g.region.start) finish(g);
  };
  for (const t of tensors) {
    if (!t.byteRange || !t.dtype || !canMeasure(t.dtype) || t.byteRange[1] > fileSize) continue;
    if (headerOnly && t.numel > TINY_TENSOR) continue;
    const [start, end] = t.byteRange;
    const units = isFloatDType(t.dtype) && t.shape.length >= 2 ? t.shape[0]! : null;
    const key = `${start}:${end}:${t.dtype}:${units}`;
    const seen = shared.get(key);
    if (seen) {
      seen.tensors.push(t);
      continue;
    }
    const group: Group = {
      acc: new TensorStatsAccumulator(t.dtype, units, t.numel),
      tensors: [t],
      units,
      received: 0,
      region: {
        start,
        end,
        consume: (b) => {
          group.acc!.push(b);
          received(group, b.length);
        },
      },
    };
    shared.set(key, group);
  }
  const groups = [...shared.values()];
  const bytesTotal = groups.reduce((n, g) => n + g.region.end - g.region.start, 0);
  let bytesRead = 0;
  const onBytes = (n: number) => {
    bytesRead += n;
    options.onProgress?.({ bytesRead, bytesTotal });
  };
  const split = options.split;
  if (split && bytesTotal >= (split.minBytes ?? SPLIT_MIN_BYTES)) {
    const regions = groups.map((g) => ({ dtype: g.tensors[0]!.dtype!, units: g.units, numel: g.tensors[0]!.numel, start: g.region.start, end: g.region.end }));
    const pieces = split.pieces ?? defaultPieces(bytesTotal, split.threads);
    await scanInPieces(path, regions, split, pieces, (slice, sliceStats) => {
      const group = groups[slice.region]!;
      if ("whole" in sliceStats) return finish(group, sliceStats.whole);
      group.acc!.absorb(sliceStats.part);
      received(group, slice.to - slice.from);
    }, { signal: options.signal, chunkBytes: options.chunkBytes, onBytes });
  } else {
    await readRegions(fh, groups.map((g) => g.region), { signal: options.signal, chunkBytes: options.chunkBytes, onBytes });
  }
  for (const g of groups) if (g.acc) finish(g);
  return bytesRead;
}
