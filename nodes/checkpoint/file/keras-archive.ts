import { createReadStream, createWriteStream } from "node:fs";
import { type FileHandle, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createInflateRaw } from "node:zlib";
import { isRecord } from "../../../artifacts/json-values.js";
import { type Hdf5Options, readHdf5 } from "./hdf5.js";
import { kerasLoadCode } from "./keras-config.js";
import type { FormatContents } from "./scan-types.js";
import { entryDataOffset, isDecompressible, readZipEntry, type ZipEntry } from "./zip.js";

/** config.json and metadata.json are small; larger ones are not what Keras writes. */
const MAX_JSON_BYTES = 64 << 20;

/** A Keras v3 archive by its entries: config.json with model.weights.h5 or metadata.json beside it (keras saving_lib). */
export const isKerasArchive = (entries: readonly ZipEntry[]) =>
  entries.some((e) => e.name === "config.json") && entries.some((e) => e.name === "model.weights.h5" || e.name === "metadata.json");

async function jsonEntry(fh: FileHandle, entry: ZipEntry | undefined): Promise<unknown> {
  if (!entry) return null;
  try {
    return JSON.parse(new TextDecoder().decode(await readZipEntry(fh, entry, MAX_JSON_BYTES)));
  } catch {
    return undefined;
  }
}

/** Copies an entry's data out of the archive to `target`, inflating it when it is compressed (bounded memory either way). */
async function extract(fh: FileHandle, path: string, entry: ZipEntry, target: string): Promise<void> {
  const start = await entryDataOffset(fh, entry);
  const source: Readable = entry.compressedSize === 0 ? Readable.from([]) : createReadStream(path, { start, end: start + entry.compressedSize - 1 });
  const steps = entry.method === 8 ? [source, createInflateRaw(), createWriteStream(target)] : [source, createWriteStream(target)];
  await pipeline(steps as [Readable, NodeJS.WritableStream]);
}

/**
 * Reads a Keras v3 `.keras` archive: config.json's Lambda layers and custom objects, metadata.json's Keras version,
 * and model.weights.h5's variables with their statistics (the HDF5 file is copied to a temporary file for libhdf5,
 * then removed).
 */
export async function readKerasArchive(fh: FileHandle, path: string, entries: readonly ZipEntry[], options: Hdf5Options): Promise<FormatContents> {
  const out: FormatContents = { tensors: [], issues: [], metadata: {}, loadCode: [] };
  const config = await jsonEntry(fh, entries.find((e) => e.name === "config.json"));
  const meta = await jsonEntry(fh, entries.find((e) => e.name === "metadata.json"));
  if (config === undefined) out.issues.push({ kind: "unreadable", detail: "config.json is not valid JSON" });
  out.loadCode = kerasLoadCode(config);
  if (isRecord(meta)) for (const key of ["keras_version", "backend", "date_saved"]) if (typeof meta[key] === "string") out.metadata[key] = meta[key];
  const weights = entries.find((e) => e.name === "model.weights.h5");
  if (!weights) return out;
  if (!isDecompressible(weights)) {
    out.issues.push({ kind: "unreadable", detail: `model.weights.h5 uses compression method ${weights.method}: its variables were not read` });
    return out;
  }
  const dir = await mkdtemp(join(tmpdir(), "ml-diagnose-keras-"));
  try {
    const copy = join(dir, "model.weights.h5");
    await extract(fh, path, weights, copy);
    const h5 = await readHdf5(copy, options);
    out.tensors = h5.tensors;
    out.issues.push(...h5.issues.map((i) => ({ ...i, detail: `model.weights.h5: ${i.detail}` })));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return out;
}
