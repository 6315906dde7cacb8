import type { FileHandle } from "node:fs/promises";
import { readBytes } from "./range-reader.js";

/** A header that runs past the end of the file, or that claims more than a reader accepts. */
export class HeaderError extends Error {
  override name = "HeaderError";
  constructor(message: string, readonly truncated: boolean) {
    super(message);
  }
}

/** First window read; it doubles as the header grows, up to `maxBytes`. */
const FIRST_WINDOW = 1 << 20;

/**
 * Reads a little-endian binary header front to back without reading the whole file: a window of the file that grows
 * as the header goes on (GGUF keeps a tokenizer's whole vocabulary in its header), bounded by `maxBytes`.
 */
export class FileCursor {
  private buf: Uint8Array = new Uint8Array(0);
  private view = new DataView(this.buf.buffer);
  pos = 0;

  constructor(private readonly fh: FileHandle, readonly fileSize: number, private readonly maxBytes: number) {}

  private async ensure(n: number): Promise<void> {
    if (this.pos + n <= this.buf.length) return;
    if (this.pos + n > this.fileSize) throw new HeaderError(`the header needs ${this.pos + n} bytes but the file has ${this.fileSize}`, true);
    if (this.pos + n > this.maxBytes) throw new HeaderError(`the header runs past ${this.maxBytes} bytes, more than this reader accepts`, false);
    const want = Math.min(this.fileSize, this.maxBytes, Math.max(FIRST_WINDOW, this.buf.length * 2, this.pos + n));
    this.buf = await readBytes(this.fh, 0, want);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  }

  async u8(): Promise<number> {
    await this.ensure(1);
    return this.buf[this.pos++]!;
  }
  async u32(): Promise<number> {
    await this.ensure(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }
  /** A u64 as a number; above 2^53 it is no size a file can have, and the caller's bounds reject it. */
  async u64(): Promise<number> {
    await this.ensure(8);
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return v > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(v);
  }
  async bytes(n: number): Promise<Uint8Array> {
    await this.ensure(n);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  /** A scalar of `size` bytes read as a number by `read`. */
  async scalar(size: number, read: (v: DataView, at: number) => number | bigint): Promise<number | bigint> {
    await this.ensure(size);
    const v = read(this.view, this.pos);
    this.pos += size;
    return v;
  }
  async skip(n: number): Promise<void> {
    if (this.pos + n > this.fileSize) throw new HeaderError(`the header needs ${this.pos + n} bytes but the file has ${this.fileSize}`, true);
    this.pos += n;
  }
}
