/** Protobuf wire types. */
export const WIRE = { varint: 0, fixed64: 1, bytes: 2, fixed32: 5 } as const;

const utf8 = new TextDecoder();

/** A minimal protobuf reader: walks fields of one message, reads scalars, skips the rest. */
export class ProtoReader {
  private pos: number;
  /** Made on the first fixed-width read: most messages have none, and a reader per nested message is the hot path. */
  private dataView: DataView | null = null;

  constructor(
    private readonly buf: Uint8Array,
    start = 0,
    private readonly end = buf.length,
  ) {
    this.pos = start;
  }

  private get view(): DataView {
    this.dataView ??= new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    return this.dataView;
  }

  /** The next field's number and wire type, or null at the end of the message. */
  next(): { field: number; wire: number } | null {
    if (this.pos >= this.end) return null;
    const key = this.varint();
    return { field: Math.floor(key / 8), wire: key % 8 };
  }

  /** An unsigned varint as a number (exact up to 2^53, which covers steps and lengths). */
  varint(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      const b = this.byte();
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 128;
    }
    throw new Error(`malformed varint at byte ${this.pos}`);
  }

  float(): number {
    return this.view.getFloat32(this.take(4), true);
  }

  double(): number {
    return this.view.getFloat64(this.take(8), true);
  }

  /** A length-delimited field's bytes (a view, not a copy). */
  bytes(): Uint8Array {
    const n = this.varint();
    const at = this.take(n);
    return this.buf.subarray(at, at + n);
  }

  /** A length-delimited field as a reader of its own over the same bytes (no copy, no view). */
  message(): ProtoReader {
    const n = this.varint();
    const at = this.take(n);
    return new ProtoReader(this.buf, at, at + n);
  }

  /** A length-delimited field as UTF-8 text; ASCII (keys, numbers as JSON) is read without the decoder. */
  string(): string {
    const n = this.varint();
    const at = this.take(n);
    if (n <= 32) {
      for (let i = at; i < at + n; i++) if (this.buf[i]! >= 0x80) return utf8.decode(this.buf.subarray(at, at + n));
      // One flat string from the codes: cheaper than TextDecoder's call for short keys and numbers, and than
      // appending a character at a time.
      return String.fromCharCode.apply(null, this.buf.subarray(at, at + n) as unknown as number[]);
    }
    return utf8.decode(this.buf.subarray(at, at + n));
  }

  skip(wire: number): void {
    switch (wire) {
      case WIRE.varint:
        this.varint();
        return;
      case WIRE.fixed64:
        this.take(8);
        return;
      case WIRE.bytes:
        this.bytes();
        return;
      case WIRE.fixed32:
        this.take(4);
        return;
      default:
        throw new Error(`unsupported protobuf wire type ${wire} at byte ${this.pos}`);
    }
  }

  private byte(): number {
    return this.buf[this.take(1)]!;
  }

  /** Advances past n bytes and returns where they start. */
  private take(n: number): number {
    this.need(n);
    const at = this.pos;
    this.pos += n;
    return at;
  }

  private need(n: number): void {
    if (this.pos + n > this.end) throw new Error(`protobuf message truncated at byte ${this.pos}`);
  }
}
