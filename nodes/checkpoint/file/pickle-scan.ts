import { type ImportedGlobal, type PickleRead, readPickle } from "./pickle-machine.js";
import { recordedVersions, type RecordedVersion } from "./pickle-libraries.js";
import { classifyGlobal, type GlobalVerdict } from "./pickle-policy.js";

/** One distinct global a pickle imports, with its verdict and how often it is imported. */
export interface ScannedGlobal extends GlobalVerdict {
  module: string;
  name: string;
  opcode: ImportedGlobal["opcode"];
  count: number;
}

/** The safety scan of one pickle stream (a file, or a `.pkl` entry inside a zip). */
export interface PickleReport {
  /** Where the pickle is: the file name or the zip entry name. */
  entry: string;
  bytes: number;
  /** Pickles read one after another in the stream (legacy torch files hold five). */
  pickles: number;
  protocol: number;
  globals: ScannedGlobal[];
  extCodes: number[];
  /** Library versions the pickle records about itself (scikit-learn's `_sklearn_version`…). */
  versions: RecordedVersion[];
  /** Why the first pickle could not be read to its STOP, or null. */
  error: string | null;
  /** Only a prefix of the stream was scanned (it was larger than the scan keeps in memory). */
  partial: boolean;
}

/**
 * Reads every pickle in `bytes`, one after another (a hostile file may hide a second pickle after the first
 * STOP), and lists their imports. Reading stops at the end of the data, after `maxPickles`, or when a later
 * pickle fails to parse (trailing data, e.g. legacy torch storages); its imports up to there still count.
 */
export function scanPickles(bytes: Uint8Array, entry: string, options: { maxPickles?: number; partial?: boolean } = {}): { report: PickleReport; reads: PickleRead[] } {
  const reads: PickleRead[] = [];
  let at = 0;
  while (at < bytes.length && reads.length < (options.maxPickles ?? 64)) {
    const read = readPickle(bytes, at);
    if (read.arrays.length > 0) read.globals.push(...importsOfPlainLoad(bytes, at, read));
    if (read.error && reads.length > 0) {
      if (read.globals.length > 0 || read.extCodes.length > 0) reads.push(read);
      break;
    }
    reads.push(read);
    if (read.error || read.end <= at) break;
    at = read.end;
  }
  return { report: summarize(entry, bytes.length, reads, options.partial ?? false), reads };
}

/**
 * joblib.load reads an array's bytes after its wrapper; pickle.load of the same file reads them as opcodes. A file
 * can hide a payload there that only the second reading runs, so the stream is also read the plain way, and the
 * dangerous imports that reading finds count too. Only dangerous ones: random array bytes read as opcodes make
 * nonsense names that would otherwise pass for unknown classes.
 */
function importsOfPlainLoad(bytes: Uint8Array, at: number, read: PickleRead): ImportedGlobal[] {
  const seen = new Set(read.globals.map((g) => g.offset));
  return readPickle(bytes, at, { joblibArrays: false }).globals.filter((g) => !seen.has(g.offset) && classifyGlobal(g.module, g.name).safety === "dangerous");
}

function summarize(entry: string, size: number, reads: readonly PickleRead[], partial: boolean): PickleReport {
  const byName = new Map<string, ScannedGlobal>();
  for (const read of reads) {
    for (const g of read.globals) {
      const key = `${g.module}\n${g.name}`;
      const seen = byName.get(key);
      if (seen) seen.count++;
      else byName.set(key, { module: g.module, name: g.name, opcode: g.opcode, count: 1, ...classifyGlobal(g.module, g.name) });
    }
  }
  const libraries = new Set([...byName.values()].flatMap((g) => (g.library ? [g.library] : [])));
  const versions = libraries.size === 0 ? [] : dedupe(reads.flatMap((r) => recordedVersions(r.value, libraries)));
  return {
    entry,
    bytes: size,
    pickles: reads.filter((r) => !r.error).length,
    protocol: reads[0]?.protocol ?? 0,
    globals: [...byName.values()],
    extCodes: reads.flatMap((r) => r.extCodes),
    versions,
    error: reads[0]?.error ?? null,
    partial,
  };
}

const dedupe = (versions: RecordedVersion[]) => [...new Map(versions.map((v) => [`${v.library}\n${v.version}`, v])).values()];

/** Candidate starts tried when carving: bounds the work on a large binary. */
const MAX_CARVE_ATTEMPTS = 4096;

/**
 * Finds pickles stored verbatim inside bytes the scan cannot parse as a container (a 7z or gzip archive keeps
 * small or incompressible members uncompressed): every PROTO 2–5 opcode (followed by FRAME for protocol 4–5) is
 * tried as a start, and a stream that reads cleanly to its STOP is reported under `entry@offset`. Random bytes
 * almost never read cleanly to a STOP, so what is reported is a real pickle.
 */
export function carvePickles(bytes: Uint8Array, entry: string): PickleReport[] {
  const out: PickleReport[] = [];
  let attempts = 0;
  for (let at = bytes.indexOf(0x80); at >= 0 && at + 2 < bytes.length && attempts < MAX_CARVE_ATTEMPTS; at = bytes.indexOf(0x80, at + 1)) {
    const protocol = bytes[at + 1]!;
    if (protocol < 2 || protocol > 5 || (protocol >= 4 && bytes[at + 2] !== 0x95)) continue;
    attempts++;
    const read = readPickle(bytes, at);
    if (read.error || read.end <= at) continue;
    out.push(summarize(`${entry}@${at}`, read.end - at, [read], false));
    at = read.end - 1;
  }
  return out;
}
