import type { FileHandle } from "node:fs/promises";
import { constants, inflateRawSync, type ZlibOptions } from "node:zlib";
import { readBytes } from "./range-reader.js";

/** One entry of a zip's central directory. */
export interface ZipEntry {
  name: string;
  /** 0 = STORED, 8 = DEFLATE. */
  method: number;
  /** General-purpose bit flags; bit 0 = the entry is encrypted. */
  flags: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

/** The zip is malformed or cut short; the message says which structure is missing. */
export class ZipFormatError extends Error {
  override name = "ZipFormatError";
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_CENTRAL_DIRECTORY = 256 << 20;

const u64 = (v: DataView, at: number) => v.getUint32(at, true) + v.getUint32(at + 4, true) * 4294967296;
const viewOf = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

/** Reads the central directory (ZIP64 included) without touching entry data. */
export async function readZipDirectory(fh: FileHandle, fileSize: number): Promise<ZipEntry[]> {
  const tailLength = Math.min(fileSize, 22 + 65535 + 20);
  const tail = await readBytes(fh, fileSize - tailLength, tailLength);
  const tv = viewOf(tail);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tv.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipFormatError("zip end-of-central-directory record not found: the file is truncated or not a zip");
  let entries = tv.getUint16(eocd + 10, true);
  let cdSize = tv.getUint32(eocd + 12, true);
  let cdOffset = tv.getUint32(eocd + 16, true);
  if (eocd >= 20 && tv.getUint32(eocd - 20, true) === ZIP64_LOCATOR) {
    const at = u64(tv, eocd - 20 + 8);
    const rec = viewOf(await readBytes(fh, at, 56));
    if (rec.byteLength < 56 || rec.getUint32(0, true) !== ZIP64_EOCD) throw new ZipFormatError("ZIP64 end record missing where its locator points");
    entries = u64(rec, 32);
    cdSize = u64(rec, 40);
    cdOffset = u64(rec, 48);
  }
  if (cdSize > MAX_CENTRAL_DIRECTORY || cdOffset + cdSize > fileSize) throw new ZipFormatError(`zip central directory (${cdSize} bytes at ${cdOffset}) lies outside the file`);
  return parseCentralDirectory(await readBytes(fh, cdOffset, cdSize), entries);
}

function parseCentralDirectory(cd: Uint8Array, expected: number): ZipEntry[] {
  const v = viewOf(cd);
  const out: ZipEntry[] = [];
  let p = 0;
  while (p + 46 <= cd.length && out.length < expected) {
    if (v.getUint32(p, true) !== CENTRAL) throw new ZipFormatError(`bad central directory record at offset ${p}`);
    const flags = v.getUint16(p + 8, true);
    const method = v.getUint16(p + 10, true);
    let compressedSize = v.getUint32(p + 20, true);
    let size = v.getUint32(p + 24, true);
    const nameLength = v.getUint16(p + 28, true);
    const extraLength = v.getUint16(p + 30, true);
    const commentLength = v.getUint16(p + 32, true);
    let localHeaderOffset = v.getUint32(p + 42, true);
    const name = new TextDecoder().decode(cd.subarray(p + 46, p + 46 + nameLength));
    // ZIP64 extra field (id 1) carries, in order, whichever of these were saturated at 0xffffffff.
    let e = p + 46 + nameLength;
    const extraEnd = e + extraLength;
    while (e + 4 <= extraEnd) {
      const id = v.getUint16(e, true);
      const len = v.getUint16(e + 2, true);
      if (id === 1) {
        let q = e + 4;
        if (size === 0xffffffff) (size = u64(v, q)), (q += 8);
        if (compressedSize === 0xffffffff) (compressedSize = u64(v, q)), (q += 8);
        if (localHeaderOffset === 0xffffffff) localHeaderOffset = u64(v, q);
      }
      e += 4 + len;
    }
    out.push({ name, method, flags, compressedSize, size, localHeaderOffset });
    p = extraEnd + commentLength;
  }
  return out;
}

/** Absolute offset of an entry's data (after its local header, whose extra field may differ from the central one). */
export async function entryDataOffset(fh: FileHandle, entry: ZipEntry): Promise<number> {
  const header = await readBytes(fh, entry.localHeaderOffset, 30);
  const v = viewOf(header);
  if (header.length < 30 || v.getUint32(0, true) !== LOCAL) throw new ZipFormatError(`local header of ${entry.name} is missing`);
  return entry.localHeaderOffset + 30 + v.getUint16(26, true) + v.getUint16(28, true);
}

/** zlib's errors carry a code, like file-system errors; a bad DEFLATE stream is the archive's fault, not the disk's. */
function inflate(entry: ZipEntry, data: Uint8Array, options: ZlibOptions): Uint8Array {
  try {
    return inflateRawSync(data, options);
  } catch (err) {
    throw new ZipFormatError(`${entry.name} does not inflate: ${(err as Error).message}`);
  }
}

/**
 * The entry claims to be encrypted (flag bit 0). The claim alone proves nothing: loaders such as torch's miniz
 * ignore it, so a hostile archive sets it over a plain pickle to make Python's zipfile-based scanners give up.
 */
export const claimsEncryption = (entry: ZipEntry) => (entry.flags & 1) !== 0;

/** Whether the scan can decompress the entry: STORED or DEFLATE. */
export const isDecompressible = (entry: ZipEntry) => entry.method === 0 || entry.method === 8;

/** Reads the first `n` bytes of an entry (inflating only as much as needed), e.g. to recognize its content. */
export async function readZipEntryHead(fh: FileHandle, entry: ZipEntry, n: number): Promise<Uint8Array> {
  const start = await entryDataOffset(fh, entry);
  if (entry.method === 0) return readBytes(fh, start, Math.min(n, entry.compressedSize));
  // DEFLATE: a prefix of the stream inflates to a prefix of the entry (sync flush tolerates the cut); DEFLATE
  // expands at most 1032-fold, which bounds the output.
  const prefix = await readBytes(fh, start, Math.min(entry.compressedSize, n));
  return inflate(entry, prefix, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: n * 1032 + 1024 }).subarray(0, n);
}

/** Reads a whole (small) entry, inflating it when it is compressed. */
export async function readZipEntry(fh: FileHandle, entry: ZipEntry, maxBytes: number): Promise<Uint8Array> {
  if (entry.size > maxBytes || entry.compressedSize > maxBytes) {
    throw new ZipFormatError(`${entry.name} is ${Math.max(entry.size, entry.compressedSize)} bytes, more than the ${maxBytes} the scan reads`);
  }
  const data = await readBytes(fh, await entryDataOffset(fh, entry), entry.compressedSize);
  if (data.length < entry.compressedSize) throw new ZipFormatError(`${entry.name} is cut short`);
  if (entry.method === 0) return data;
  if (entry.method === 8) return inflate(entry, data, { maxOutputLength: maxBytes });
  throw new ZipFormatError(`${entry.name} uses compression method ${entry.method}`);
}
