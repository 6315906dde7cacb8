// Builds pickles and the containers they travel in, byte by byte, so the safety tests generate every attack class
// instead of committing binaries. Nothing here ever unpickles anything: it only writes opcodes.
import { crc32, deflateRawSync } from "node:zlib";

const ascii = (s: string) => Buffer.from(s, "latin1");
const utf8 = (s: string) => Buffer.from(s, "utf8");
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};

/** A pickle protocol, 0 (text) to 5. */
export type Protocol = 0 | 1 | 2 | 3 | 4 | 5;
export const PROTOCOLS: readonly Protocol[] = [0, 1, 2, 3, 4, 5];

/** A string argument in the protocol's own string opcode: STRING (0), SHORT_BINSTRING (1), BINUNICODE (2–3), SHORT_BINUNICODE (4–5). */
function pushString(protocol: Protocol, s: string): Buffer {
  if (protocol === 0) return ascii(`S'${s}'\n`);
  const bytes = utf8(s);
  if (protocol === 1) return Buffer.concat([ascii("U"), Buffer.from([bytes.length]), bytes]);
  if (protocol <= 3) return Buffer.concat([ascii("X"), u32(bytes.length), bytes]);
  return Buffer.concat([Buffer.from([0x8c, bytes.length]), bytes]);
}

/** Pushes the global `module.name` the way the protocol's pickler does: GLOBAL up to 3, STACK_GLOBAL from 4. */
function pushGlobal(protocol: Protocol, module: string, name: string, memoized = false): Buffer {
  if (protocol < 4) return ascii(`c${module}\n${name}\n`);
  if (!memoized) return Buffer.concat([pushString(protocol, module), pushString(protocol, name), Buffer.from([0x93])]);
  // Strings parked in the memo and fetched back (BINPUT/BINGET) before STACK_GLOBAL: the trick that hides the
  // import from scanners reading only the opcodes next to it.
  return Buffer.concat([
    pushString(protocol, module), Buffer.from([0x71, 1, 0x30]), pushString(protocol, name), Buffer.from([0x71, 2, 0x30]),
    Buffer.from([0x68, 1, 0x68, 2, 0x93]),
  ]);
}

/** PROTO (and FRAME from 4) around a body that ends with STOP. */
function frame(protocol: Protocol, body: Buffer): Buffer {
  const full = Buffer.concat([body, ascii(".")]);
  if (protocol < 2) return full;
  if (protocol < 4) return Buffer.concat([Buffer.from([0x80, protocol]), full]);
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(full.length));
  return Buffer.concat([Buffer.from([0x80, protocol, 0x95]), length, full]);
}

/** How a pickle calls the imported global. */
export type CallStyle = "reduce" | "memo_stack_global" | "inst" | "obj" | "newobj" | "build";

/** The call styles a protocol can express: INST/OBJ exist in every protocol; NEWOBJ from 2; memo tricks from 4. */
export function callStyles(protocol: Protocol): CallStyle[] {
  return ["reduce", "inst", "obj", "build", ...(protocol >= 2 ? (["newobj"] as const) : []), ...(protocol >= 4 ? (["memo_stack_global"] as const) : [])];
}

/** A pickle whose loading calls `module.name(arg)` (the `__reduce__` pattern and its opcode variants). */
export function hostilePickle(protocol: Protocol, module: string, name: string, style: CallStyle = "reduce", arg = "id"): Buffer {
  const s = pushString(protocol, arg);
  const oneTuple = protocol >= 2 ? Buffer.from([0x85]) : Buffer.concat([ascii("("), s, ascii("t")]);
  const args = protocol >= 2 ? Buffer.concat([s, oneTuple]) : oneTuple;
  switch (style) {
    case "reduce":
      return frame(protocol, Buffer.concat([pushGlobal(protocol, module, name), args, ascii("R")]));
    case "memo_stack_global":
      return frame(protocol, Buffer.concat([pushGlobal(protocol, module, name, true), args, ascii("R")]));
    case "inst": // MARK, args, INST module\nname\n
      return frame(protocol, Buffer.concat([ascii("("), s, ascii(`i${module}\n${name}\n`)]));
    case "obj": // MARK, class, args, OBJ
      return frame(protocol, Buffer.concat([ascii("("), pushGlobal(protocol, module, name), s, ascii("o")]));
    case "newobj": // class, args tuple, NEWOBJ (cls.__new__(cls, *args))
      return frame(protocol, Buffer.concat([pushGlobal(protocol, module, name), args, Buffer.from([0x81])]));
    case "build": // an empty dict whose BUILD state is the result of the call: the call runs while loading
      return frame(protocol, Buffer.concat([ascii("}"), pushGlobal(protocol, module, name), args, ascii("Rb")]));
  }
}

/** A benign state-dict-like pickle: a dict of numbers and strings, plus collections.OrderedDict() called. */
export function benignPickle(protocol: Protocol): Buffer {
  const body = Buffer.concat([
    ascii("("), pushString(protocol, "lr"), protocol === 0 ? ascii("F0.001\n") : Buffer.concat([ascii("G"), (() => { const b = Buffer.alloc(8); b.writeDoubleBE(0.001); return b; })()]),
    pushString(protocol, "epoch"), protocol === 0 ? ascii("I3\n") : Buffer.from([0x4b, 3]),
    pushString(protocol, "state"), pushGlobal(protocol, "collections", "OrderedDict"), protocol >= 2 ? Buffer.from([0x29]) : ascii("(t"), ascii("R"),
    ascii("d"),
  ]);
  return frame(protocol, body);
}

/**
 * What `np.save` writes after an object array's header: the whole array pickled (protocol 3) through
 * numpy.core.multiarray._reconstruct, numpy.ndarray and numpy.dtype('O8'), here holding [1, 2, 3, 4]. Benign, but
 * only loadable with allow_pickle=True.
 */
export function numpyObjectArrayPickle(): Buffer {
  const int1 = (n: number) => Buffer.from([0x4b, n]);
  return frame(3, Buffer.concat([
    pushGlobal(3, "numpy.core.multiarray", "_reconstruct"), pushGlobal(3, "numpy", "ndarray"), int1(0), Buffer.from([0x85]),
    Buffer.from([0x43, 1]), ascii("b"), Buffer.from([0x87]), ascii("R"),
    ascii("("), int1(1), int1(4), Buffer.from([0x85]),
    pushGlobal(3, "numpy", "dtype"), pushString(3, "O8"), Buffer.from([0x89, 0x88, 0x87]), ascii("R"),
    ascii("("), int1(3), pushString(3, "|"), ascii("NNN"), ascii("J"), u32(0xffffffff), ascii("J"), u32(0xffffffff), int1(63), ascii("tb"),
    Buffer.from([0x89]), ascii("]("), int1(1), int1(2), int1(3), int1(4), ascii("e"), ascii("tb"),
  ]));
}

/** One member of a zip archive. */
export interface ZipMember {
  name: string;
  data: Buffer;
  deflate?: boolean;
  /** General-purpose flags, e.g. 0x1 (claims encryption without encrypting: a scanner-evasion trick). */
  flags?: number;
  /** The name the central directory gives the member when it differs from its local header's (a corrupted index). */
  centralName?: string;
  /** A CRC-32 that does not match the data (Python's zipfile refuses the member; torch's reader does not check). */
  crc?: number;
}

/** A minimal, valid zip (STORED or DEFLATE members, no ZIP64). */
export function zipArchive(members: readonly ZipMember[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const m of members) {
    const name = utf8(m.name);
    const body = m.deflate ? deflateRawSync(m.data) : m.data;
    const common = Buffer.alloc(26);
    common.writeUInt16LE(20, 0); // version needed
    common.writeUInt16LE(m.flags ?? 0, 2);
    common.writeUInt16LE(m.deflate ? 8 : 0, 4);
    common.writeUInt32LE(m.crc ?? crc32(m.data), 10);
    common.writeUInt32LE(body.length, 14);
    common.writeUInt32LE(m.data.length, 18);
    common.writeUInt16LE(name.length, 22);
    const local = Buffer.concat([u32(0x04034b50), common, name, body]);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    common.copy(central, 6, 0, 26);
    central.writeUInt32LE(offset, 42);
    const listed = m.centralName === undefined ? name : utf8(m.centralName);
    central.writeUInt16LE(listed.length, 28);
    centrals.push(Buffer.concat([central, listed]));
    locals.push(local);
    offset += local.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** An .npy file (format 1.0) whose header declares `descr`; `payload` follows the 64-byte-aligned header. */
export function npyFile(descr: string, shape: readonly number[], payload: Buffer): Buffer {
  const dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(", ")}${shape.length === 1 ? "," : ""}), }`;
  const padded = dict.padEnd(Math.ceil((10 + dict.length + 1) / 64) * 64 - 10 - 1, " ") + "\n";
  const length = Buffer.alloc(2);
  length.writeUInt16LE(padded.length);
  return Buffer.concat([Buffer.from([0x93]), ascii("NUMPY"), Buffer.from([1, 0]), length, ascii(padded), payload]);
}

/** An object array (`|O`): numpy pickles its elements after the header; np.load(allow_pickle=True) unpickles them. */
export const npyObjectArray = (pickle: Buffer) => npyFile("|O", [1], pickle);

/**
 * A 7z file whose single member is stored as one uncompressed LZMA2 chunk, as 7z writers do for small or
 * incompressible data (picklescan's malicious1.7z is laid out this way): signature header, then the packed stream.
 */
export function sevenZip(member: Buffer): Buffer {
  const packed = Buffer.concat([Buffer.from([0x01, (member.length - 1) >> 8, (member.length - 1) & 0xff]), member, Buffer.from([0x00])]);
  const header = Buffer.alloc(32);
  Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4]).copy(header);
  header.writeBigUInt64LE(BigInt(packed.length), 12);
  return Buffer.concat([header, packed]);
}
