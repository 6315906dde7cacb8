import type { FileHandle } from "node:fs/promises";
import { readBytes } from "./range-reader.js";

/**
 * The protobuf wire format (protobuf.dev/programming-guides/encoding), read field by field without a schema and
 * without copying payloads: each field says where its bytes are, so a reader descends into the messages it needs
 * and records where tensor bytes sit instead of reading them. ONNX and SavedModel files are read this way.
 */

/** One field of a message: its number, wire type, the varint's value, and its payload's absolute [start, end). */
export interface WireField {
  field: number;
  wire: number;
  /** The value of a varint field (wire type 0), else 0n. */
  varint: bigint;
  start: number;
  end: number;
}

/** A message that does not parse, or a field that runs past the end of its message (a truncated file). */
export class ProtoError extends Error {
  override name = "ProtoError";
  constructor(message: string, readonly truncated: boolean) {
    super(message);
  }
}

/** Reads a varint at `p`; null when the buffer ends first. */
function varintAt(buf: Uint8Array, p: number): { value: bigint; next: number } | null {
  let value = 0n;
  for (let i = 0; i < 10; i++) {
    if (p + i >= buf.length) return null;
    const b = buf[p + i]!;
    value |= BigInt(b & 0x7f) << BigInt(7 * i);
    if ((b & 0x80) === 0) return { value, next: p + i + 1 };
  }
  throw new ProtoError("a varint runs over 10 bytes", false);
}

/** The field at `buf[p]` (absolute position `base + p`), whose message ends at absolute `limit`. */
function fieldAt(buf: Uint8Array, p: number, base: number, limit: number): WireField & { next: number } {
  const tag = varintAt(buf, p);
  if (!tag) throw new ProtoError(`a field tag at byte ${base + p} is cut short`, true);
  const field = Number(tag.value >> 3n);
  const wire = Number(tag.value & 7n);
  if (field === 0) throw new ProtoError(`field number 0 at byte ${base + p}`, false);
  let start = base + tag.next;
  let end: number;
  let varint = 0n;
  if (wire === 0) {
    const v = varintAt(buf, tag.next);
    if (!v) throw new ProtoError(`a varint at byte ${start} is cut short`, true);
    varint = v.value;
    end = base + v.next;
    start = end;
  } else if (wire === 1 || wire === 5) {
    end = start + (wire === 1 ? 8 : 4);
  } else if (wire === 2) {
    const len = varintAt(buf, tag.next);
    if (!len) throw new ProtoError(`a length at byte ${start} is cut short`, true);
    start = base + len.next;
    end = start + Number(len.value);
  } else {
    throw new ProtoError(`wire type ${wire} (field ${field}) at byte ${base + p} is not one protobuf writes today`, false);
  }
  if (end > limit) throw new ProtoError(`field ${field} at byte ${base + p} needs bytes up to ${end}, but its message ends at ${limit}`, true);
  return { field, wire, varint, start, end, next: end - base };
}

/** The fields of an in-memory message whose first byte sits at absolute position `base`. */
export function* messageFields(buf: Uint8Array, base = 0): Generator<WireField> {
  let p = 0;
  while (p < buf.length) {
    const f = fieldAt(buf, p, base, base + buf.length);
    p = f.next;
    yield f;
  }
}

/** The fields of a message that lies in a file at [start, end), read one tag at a time (payloads are not read). */
export async function* fileMessageFields(fh: FileHandle, start: number, end: number): AsyncGenerator<WireField> {
  let p = start;
  while (p < end) {
    // A tag and a length take at most 20 bytes.
    const head = await readBytes(fh, p, Math.min(20, end - p));
    const f = fieldAt(head, 0, p, end);
    p = f.end;
    yield f;
  }
}

/** The varints of a repeated integer field, packed (wire type 2) or not (wire type 0). */
export function varintsOf(payload: Uint8Array, f: WireField): bigint[] {
  if (f.wire === 0) return [f.varint];
  const out: bigint[] = [];
  let p = 0;
  while (p < payload.length) {
    const v = varintAt(payload, p);
    if (!v) throw new ProtoError(`a packed varint at byte ${f.start + p} is cut short`, true);
    out.push(v.value);
    p = v.next;
  }
  return out;
}

/**
 * Whether the first bytes parse as a message whose first fields are among `expected` (field number → wire type),
 * each fitting in the file: the structural test that tells a protobuf file from other bytes without a magic number.
 */
export function startsLikeMessage(head: Uint8Array, fileSize: number, expected: ReadonlyMap<number, number>, minFields: number): boolean {
  let p = 0;
  let seen = 0;
  try {
    while (p < head.length && seen < minFields) {
      const f = fieldAt(head, p, 0, fileSize);
      if (expected.get(f.field) !== f.wire) return false;
      seen++;
      p = f.next;
      if (f.wire === 2 && p > head.length) break;
    }
  } catch {
    return false;
  }
  return seen >= Math.min(minFields, 1) && (seen >= minFields || p >= head.length);
}
