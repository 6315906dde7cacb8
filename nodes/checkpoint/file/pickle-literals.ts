/**
 * The pickle opcodes that push a value read from their own argument (numbers, strings, bytes) or named by the
 * opcode (None, True, False). They touch neither the stack's structure nor the memo, so the machine
 * (pickle-machine.ts) only pushes what they give.
 */
import { type Cursor, decodeLong, unquote, utf8 } from "./pickle-cursor.js";
import { PyBytes, PyUnknown, type PyValue } from "./pickle-values.js";

/** Byte payloads above this size are skipped, not copied: the reader keeps only their length and offset. */
const KEEP_BYTES = 1 << 16;

/** What `readLiteral` gives for an opcode that is not a literal, which the machine then handles itself. */
export const NOT_LITERAL = Symbol("not a literal");

/** The value of literal opcode `op`, its argument read from `cur`; NOT_LITERAL (nothing read) for any other opcode. */
export function readLiteral(op: number, cur: Cursor): PyValue | typeof NOT_LITERAL {
  switch (op) {
    case 0x4e: // NONE
      return null;
    case 0x88: // NEWTRUE
      return true;
    case 0x89: // NEWFALSE
      return false;
    case 0x49: {
      // INT: "01"/"00" are True/False in protocol 0
      const text = cur.line();
      return text === "01" ? true : text === "00" ? false : Number.parseInt(text, 10);
    }
    case 0x4a: // BININT
      return cur.i32();
    case 0x4b: // BININT1
      return cur.u8();
    case 0x4d: // BININT2
      return cur.u16();
    case 0x4c: // LONG
      return Number(cur.line().replace(/L$/, ""));
    case 0x8a: // LONG1
      return decodeLong(cur.take(cur.u8()));
    case 0x8b: // LONG4
      return decodeLong(cur.take(cur.i32()));
    case 0x46: // FLOAT
      return Number.parseFloat(cur.line());
    case 0x47: // BINFLOAT
      return cur.f64be();
    case 0x53: // STRING
      return unquote(cur.line());
    case 0x54: // BINSTRING
      return Buffer.from(cur.take(cur.i32())).toString("latin1");
    case 0x55: // SHORT_BINSTRING
      return Buffer.from(cur.take(cur.u8())).toString("latin1");
    case 0x56: // UNICODE (raw-unicode-escape)
      return cur.line().replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    case 0x58: // BINUNICODE
      return utf8.decode(cur.take(cur.u32()));
    case 0x8c: // SHORT_BINUNICODE
      return utf8.decode(cur.take(cur.u8()));
    case 0x8d: // BINUNICODE8
      return utf8.decode(cur.take(cur.u64()));
    case 0x42: // BINBYTES
      return bytesValue(cur, cur.u32());
    case 0x43: // SHORT_BINBYTES
      return bytesValue(cur, cur.u8());
    case 0x8e: // BINBYTES8
    case 0x96: // BYTEARRAY8
      return bytesValue(cur, cur.u64());
    case 0x97: // NEXT_BUFFER: out-of-band data we do not have
      return new PyUnknown("out-of-band buffer");
    default:
      return NOT_LITERAL;
  }
}

function bytesValue(cur: Cursor, n: number): PyBytes {
  const at = cur.need(n);
  return new PyBytes(n, n <= KEEP_BYTES ? cur.bytes.subarray(at, at + n) : null, at);
}
