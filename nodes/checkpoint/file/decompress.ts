import type { FileHandle } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { createGunzip, createInflate } from "node:zlib";

/** Compressions Node decompresses itself, as joblib.dump(compress=…) and `.pkl.gz` files use them. */
export type Compression = "zlib" | "gzip";

/**
 * The compression a file starts with: gzip's magic, or a zlib header (CMF 0x78, a check value that makes the
 * 16-bit header a multiple of 31: joblib's `compress="zlib"` and its default `compress=True`).
 */
export function compressionOf(head: Uint8Array): Compression | null {
  if (head[0] === 0x1f && head[1] === 0x8b) return "gzip";
  if (head[0] === 0x78 && head[1] !== undefined && (0x7800 + head[1]) % 31 === 0) return "zlib";
  return null;
}

const CHUNK_BYTES = 1 << 16;

/**
 * The file from its start in chunks, by positional reads: a FileHandle's own read stream, destroyed when the output
 * limit is reached, left the handle's next stream empty now and then (seen under load in the tests).
 */
async function* fileChunks(fh: FileHandle): AsyncGenerator<Buffer> {
  for (let position = 0; ; ) {
    const { bytesRead, buffer } = await fh.read(Buffer.alloc(CHUNK_BYTES), 0, CHUNK_BYTES, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/** What decompressing gave: at most `limit` bytes, whether that is all of it, and why it stopped early. */
export interface Decompressed {
  bytes: Uint8Array;
  complete: boolean;
  error: string | null;
}

/**
 * Decompresses the file's first `limit` bytes of output, streaming (a small file cannot expand without bound in
 * memory). A damaged or cut stream keeps what came out before the damage, with the error.
 */
export async function decompressHead(fh: FileHandle, kind: Compression, limit: number): Promise<Decompressed> {
  const parts: Buffer[] = [];
  let size = 0;
  let complete = true;
  let error: string | null = null;
  const collect = async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      const room = limit - size;
      parts.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(chunk.length, room);
      if (chunk.length > room) {
        complete = false;
        return;
      }
    }
  };
  try {
    await pipeline(fileChunks(fh), kind === "gzip" ? createGunzip() : createInflate(), collect);
  } catch (err) {
    if (complete) error = (err as Error).message;
  }
  return { bytes: Buffer.concat(parts), complete, error };
}
