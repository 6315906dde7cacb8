import type { FileHandle } from "node:fs/promises";

/** A byte range of the file and who consumes its bytes, in order. */
export interface ByteRegion {
  start: number;
  end: number;
  consume(bytes: Uint8Array): void;
}

export interface RangeReadOptions {
  signal?: AbortSignal;
  /** Bytes read per call; the one buffer the reader allocates. */
  chunkBytes?: number;
  onBytes?: (bytesRead: number) => void;
}

/** Regions closer than this are read in one sweep rather than with a seek in between. */
const MERGE_GAP = 1 << 20;
export const DEFAULT_CHUNK_BYTES = 16 << 20;

/**
 * Streams each region's bytes to its consumer, reading the file front to back in fixed chunks through one
 * reused buffer (so memory stays bounded whatever the file size) and checking the abort signal between chunks.
 * Regions may overlap; each sees exactly its own bytes.
 */
export async function readRegions(fh: FileHandle, regions: readonly ByteRegion[], options: RangeReadOptions = {}): Promise<void> {
  const sorted = [...regions].filter((r) => r.end > r.start).sort((a, b) => a.start - b.start);
  const buffer = new Uint8Array(new ArrayBuffer(options.chunkBytes ?? DEFAULT_CHUNK_BYTES));
  let next = 0;
  const active: ByteRegion[] = [];
  while (next < sorted.length || active.length > 0) {
    if (active.length === 0) active.push(sorted[next++]!);
    // One sweep covers the active regions plus those that start within MERGE_GAP of its end.
    let sweepEnd = Math.max(...active.map((r) => r.end));
    let pos = Math.min(...active.map((r) => r.start));
    while (next < sorted.length && sorted[next]!.start <= sweepEnd + MERGE_GAP) {
      sweepEnd = Math.max(sweepEnd, sorted[next]!.end);
      active.push(sorted[next++]!);
    }
    while (pos < sweepEnd) {
      options.signal?.throwIfAborted();
      const want = Math.min(buffer.length, sweepEnd - pos);
      const { bytesRead } = await fh.read(buffer, 0, want, pos);
      if (bytesRead === 0) throw new Error(`unexpected end of file at byte ${pos}`);
      const chunkEnd = pos + bytesRead;
      for (const r of active) {
        const from = Math.max(r.start, pos);
        const to = Math.min(r.end, chunkEnd);
        if (to > from) r.consume(buffer.subarray(from - pos, to - pos));
      }
      options.onBytes?.(bytesRead);
      pos = chunkEnd;
    }
    active.length = 0;
  }
}

/** Reads `length` bytes at `position` into a new buffer (for headers and pickles, never for tensor data). */
export async function readBytes(fh: FileHandle, position: number, length: number): Promise<Uint8Array> {
  const out = new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fh.read(out, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done === length ? out : out.subarray(0, done);
}
