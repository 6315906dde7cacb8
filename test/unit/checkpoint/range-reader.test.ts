import type { FileHandle } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { DEFAULT_CHUNK_BYTES, readRegions } from "../../../nodes/checkpoint/file/range-reader.js";

/** A file handle over bytes in memory that records the size of every buffer it was asked to read into. */
function handleOver(bytes: Uint8Array) {
  const bufferSizes: number[] = [];
  const fh = {
    read: async (buffer: Uint8Array, offset: number, length: number, position: number) => {
      bufferSizes.push(buffer.byteLength);
      const n = Math.max(0, Math.min(length, bytes.length - position));
      buffer.set(bytes.subarray(position, position + n), offset);
      return { bytesRead: n, buffer };
    },
  };
  return { fh: fh as unknown as FileHandle, bufferSizes };
}

const fileOf = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + 3) % 251);

/** Reads the regions and returns what each consumer saw, as one byte array per region. */
async function consumed(fh: FileHandle, regions: Array<[number, number]>, chunkBytes?: number): Promise<Buffer[]> {
  const seen = regions.map(() => [] as Buffer[]);
  await readRegions(
    fh,
    regions.map(([start, end], i) => ({ start, end, consume: (b: Uint8Array) => seen[i]!.push(Buffer.from(b)) })),
    { chunkBytes },
  );
  return seen.map((chunks) => Buffer.concat(chunks));
}

describe("readRegions", () => {
  it("gives each region exactly its bytes, overlapping or apart, whatever the chunk size", async () => {
    const file = fileOf(5000);
    const regions: Array<[number, number]> = [[100, 900], [400, 1200], [4000, 4999], [10, 10]];
    for (const chunkBytes of [1, 7, 64, 1000, 1 << 20, undefined]) {
      const { fh } = handleOver(file);
      const seen = await consumed(fh, regions, chunkBytes);
      expect(seen, `chunk ${chunkBytes}`).toEqual(regions.map(([s, e]) => Buffer.from(file.subarray(s, e))));
    }
  });

  it("reads into buffers no larger than the bytes to read: a small file never costs two 4 MiB chunks", async () => {
    const small = handleOver(fileOf(600));
    await consumed(small.fh, [[0, 100], [200, 600]]);
    expect(new Set(small.bufferSizes)).toEqual(new Set([600]));

    const large = handleOver(fileOf(DEFAULT_CHUNK_BYTES * 2 + 10));
    const [whole] = await consumed(large.fh, [[0, DEFAULT_CHUNK_BYTES * 2 + 10]]);
    expect(whole!.length).toBe(DEFAULT_CHUNK_BYTES * 2 + 10);
    expect(new Set(large.bufferSizes)).toEqual(new Set([DEFAULT_CHUNK_BYTES]));
    expect(large.bufferSizes).toHaveLength(3);
  });

  it("reads nothing for no regions or empty ones", async () => {
    const { fh, bufferSizes } = handleOver(fileOf(100));
    expect(await consumed(fh, [])).toEqual([]);
    expect(await consumed(fh, [[5, 5]])).toEqual([Buffer.alloc(0)]);
    expect(bufferSizes).toEqual([]);
  });

  it("stops at a file shorter than its regions, naming the byte", async () => {
    const { fh } = handleOver(fileOf(100));
    await expect(consumed(fh, [[50, 200]])).rejects.toThrow("unexpected end of file at byte 100");
  });
});
