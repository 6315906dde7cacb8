import type { FileHandle } from "node:fs/promises";
import { fileMessageFields, messageFields, ProtoError, type WireField } from "./proto-wire.js";
import { readBytes } from "./range-reader.js";

/** Messages this small are read into memory at once and walked there; larger ones are walked in the file. */
const IN_MEMORY_BYTES = 1 << 20;

/**
 * Where a protobuf message's bytes come from: the file (walked tag by tag, payloads left in place) or memory (a
 * small message read once). Both give absolute file positions, so a tensor's bytes are located wherever it sits.
 */
export interface ProtoSource {
  fields(start: number, end: number): AsyncIterable<WireField>;
  /** A field's payload, read (at most `max` bytes; larger ones are an error the caller reports). */
  bytes(f: WireField, max?: number): Promise<Uint8Array>;
  /** The source to walk [start, end) with: memory when it is small. */
  sub(start: number, end: number): Promise<ProtoSource>;
}

class MemorySource implements ProtoSource {
  constructor(private readonly buf: Uint8Array, private readonly base: number) {}
  async *fields(start: number, end: number): AsyncIterable<WireField> {
    yield* messageFields(this.buf.subarray(start - this.base, end - this.base), start);
  }
  async bytes(f: WireField): Promise<Uint8Array> {
    return this.buf.subarray(f.start - this.base, f.end - this.base);
  }
  async sub(): Promise<ProtoSource> {
    return this;
  }
}

class FileSource implements ProtoSource {
  constructor(private readonly fh: FileHandle) {}
  fields(start: number, end: number): AsyncIterable<WireField> {
    return fileMessageFields(this.fh, start, end);
  }
  async bytes(f: WireField, max = IN_MEMORY_BYTES * 64): Promise<Uint8Array> {
    if (f.end - f.start > max) throw new ProtoError(`field ${f.field} at byte ${f.start} holds ${f.end - f.start} bytes, more than the ${max} read for it`, false);
    return readBytes(this.fh, f.start, f.end - f.start);
  }
  async sub(start: number, end: number): Promise<ProtoSource> {
    return end - start <= IN_MEMORY_BYTES ? new MemorySource(await readBytes(this.fh, start, end - start), start) : this;
  }
}

/** A protobuf file's source. */
export const fileSource = (fh: FileHandle): ProtoSource => new FileSource(fh);

/** Text of a small length-delimited field. */
export async function textField(src: ProtoSource, f: WireField): Promise<string> {
  return new TextDecoder().decode(await src.bytes(f, 1 << 20));
}
