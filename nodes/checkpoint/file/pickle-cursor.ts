/** Reading the arguments of pickle opcodes: fixed-width integers, lengths, lines and quoted literals. */
import { isUtf8 } from "node:buffer";

/** The pickle's bytes end early or hold an opcode that does not exist. */
export class PickleFormatError extends Error {}

/** A little-endian cursor over the pickle's bytes. */
export class Cursor {
  pos: number;
  private readonly view: DataView;
  constructor(readonly bytes: Uint8Array, start: number) {
    this.pos = start;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  need(n: number): number {
    if (n < 0 || this.pos + n > this.bytes.length) throw new PickleFormatError(`pickle truncated at byte ${this.pos}`);
    const at = this.pos;
    this.pos += n;
    return at;
  }
  u8(): number {
    return this.bytes[this.need(1)]!;
  }
  u16(): number {
    return this.view.getUint16(this.need(2), true);
  }
  i32(): number {
    return this.view.getInt32(this.need(4), true);
  }
  u32(): number {
    return this.view.getUint32(this.need(4), true);
  }
  u64(): number {
    const at = this.need(8);
    return this.view.getUint32(at, true) + this.view.getUint32(at + 4, true) * 4294967296;
  }
  f64be(): number {
    return this.view.getFloat64(this.need(8), false);
  }
  take(n: number): Uint8Array {
    const at = this.need(n);
    return this.bytes.subarray(at, at + n);
  }
  line(): string {
    const end = this.bytes.indexOf(0x0a, this.pos);
    if (end < 0) throw new PickleFormatError(`unterminated line at byte ${this.pos}`);
    const text = Buffer.from(this.bytes.subarray(this.pos, end)).toString("latin1");
    this.pos = end + 1;
    return text;
  }
  /**
   * A GLOBAL (UTF-8) or INST (ASCII) operand, decoded strictly as Python's unpickler does: bytes it cannot decode
   * make it raise before find_class, so nothing is imported and the stream ends there.
   */
  importName(encoding: "utf-8" | "ascii"): string {
    const end = this.bytes.indexOf(0x0a, this.pos);
    if (end < 0) throw new PickleFormatError(`unterminated line at byte ${this.pos}`);
    const raw = this.bytes.subarray(this.pos, end);
    if (encoding === "ascii" ? raw.some((b) => b > 0x7f) : !isUtf8(raw)) {
      throw new PickleFormatError(`import name at byte ${this.pos} is not valid ${encoding}: Python stops there without importing`);
    }
    this.pos = end + 1;
    return Buffer.from(raw).toString("utf8");
  }
}

export const utf8 = new TextDecoder("utf-8", { fatal: false });

/** Two's-complement little-endian integer of any length (LONG1/LONG4), as a (possibly rounded) number. */
export function decodeLong(b: Uint8Array): number {
  if (b.length === 0) return 0;
  let v = 0;
  for (let i = b.length - 1; i >= 0; i--) v = v * 256 + b[i]!;
  return b[b.length - 1]! & 0x80 ? v - 2 ** (8 * b.length) : v;
}

/** Protocol-0 STRING argument: a quoted Python literal; escapes other than \\n, \\t, \\', \\\\ are kept raw. */
export function unquote(text: string): string {
  const q = text[0];
  const body = (q === "'" || q === '"') && text.endsWith(q) ? text.slice(1, -1) : text;
  return body.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c));
}
