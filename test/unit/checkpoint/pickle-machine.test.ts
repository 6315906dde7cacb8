import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { readPickle } from "../../../nodes/checkpoint/file/pickle-machine.js";
import { PyCall, PyDict, PyGlobal, PyPersistent, PyTuple, PyUnknown, toPlain } from "../../../nodes/checkpoint/file/pickle-values.js";
import { fixture } from "./fixtures.js";

const bytes = (...parts: Array<string | number[]>) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...Buffer.from(p, "latin1")] : p)));

describe("pickle machine (no execution)", () => {
  it("reads protocol 0, 2 and 5 pickles written by CPython into the same inert values", () => {
    const p0 = readPickle(readFileSync(fixture("pickle/benign-protocol0.pkl")));
    expect(p0.error).toBeNull();
    expect(toPlain(p0.value)).toEqual({ lr: 0.001, epochs: [1, 2, 3], name: "run" });
    for (const file of ["benign-protocol2.pkl", "benign-protocol5.pkl"]) {
      const read = readPickle(readFileSync(fixture(`pickle/${file}`)));
      expect(read.error).toBeNull();
      const root = read.value as PyDict;
      expect(root).toBeInstanceOf(PyDict);
      expect(root.className).toBe("collections.OrderedDict");
      expect(toPlain(root.get("layer"))).toEqual([0.1, -0.2, 0.3]);
      expect(root.get("step")).toBe(1200);
      expect(toPlain(root.get("tags"))).toEqual(expect.arrayContaining(["a", "b"]));
    }
  });

  it("decodes numbers of every width, including negative LONG1 and big-endian BINFLOAT", () => {
    // (K 7, M 0x1234, J -2, LONG1 -129, G 1.5, L"12345678901234L") as a tuple
    const read = readPickle(bytes([0x80, 0x02, 0x28, 0x4b, 7, 0x4d, 0x34, 0x12, 0x4a, 0xfe, 0xff, 0xff, 0xff, 0x8a, 2, 0x7f, 0xff, 0x47, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0], "L12345678901234L\nt."));
    expect(read.error).toBeNull();
    expect((read.value as PyTuple).items).toEqual([7, 0x1234, -2, -129, 1.5, 12345678901234]);
  });

  it("resolves memo references, including MEMOIZE under FRAME, and reads BINPERSID storage tuples", () => {
    // FRAME, "x" MEMOIZE, BINGET 0, TUPLE2, ('storage', 'k') BINPERSID inside a list
    const read = readPickle(bytes([0x80, 0x04, 0x95, 20, 0, 0, 0, 0, 0, 0, 0, 0x8c, 1], "x", [0x94, 0x68, 0, 0x86, 0x5d, 0x8c, 7], "storage", [0x8c, 1], "k", [0x86, 0x51, 0x61, 0x86, 0x2e]));
    expect(read.error).toBeNull();
    const [pair, list] = (read.value as PyTuple).items as [PyTuple, PyPersistent[]];
    expect(pair.items).toEqual(["x", "x"]);
    expect(list[0]).toBeInstanceOf(PyPersistent);
    expect((list[0]!.pid as PyTuple).items).toEqual(["storage", "k"]);
  });

  it("records REDUCE, NEWOBJ and BUILD as calls of globals without calling anything", () => {
    const read = readPickle(readFileSync(fixture("pickle/process-os-system.pkl")));
    const payload = (read.value as PyDict).get("payload") as PyCall;
    expect(payload).toBeInstanceOf(PyCall);
    expect(payload.callee).toEqual(new PyGlobal("posix", "system"));
    expect(payload.args).toEqual(["echo pwned"]);
  });

  it("keeps going on a stack underflow and reports where a pickle is cut short", () => {
    const underflow = readPickle(bytes("R."));
    expect(underflow.error).toBeNull();
    expect(underflow.value).toBeInstanceOf(PyCall);
    expect((underflow.value as PyCall).callee).toBeInstanceOf(PyUnknown);
    const cut = readPickle(bytes([0x80, 0x02, 0x58, 10, 0, 0, 0], "abc"));
    expect(cut.error).toMatch(/truncated/);
    expect(readPickle(bytes([0x80, 0x02, 0xff])).error).toMatch(/unknown opcode 0xff/);
  });

  it("reads several pickles in a row from an offset", () => {
    const data = readFileSync(fixture("pickle/second-pickle.pkl"));
    const first = readPickle(data);
    const second = readPickle(data, first.end);
    expect(toPlain(first.value)).toEqual({ ok: 1 });
    expect(second.globals.map((g) => `${g.module}.${g.name}`)).toEqual(["posix.system"]);
  });

  it("never throws on cut-short or corrupted pickles (hostile input is data)", () => {
    const data = readFileSync(fixture("pickle/process-os-system.pkl"));
    for (let n = 0; n <= data.length; n++) expect(() => readPickle(data.subarray(0, n))).not.toThrow();
    let seed = 99;
    for (let round = 0; round < 500; round++) {
      const copy = Uint8Array.from(data);
      for (let k = 0; k < 3; k++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        copy[seed % copy.length] = seed >>> 24;
      }
      expect(() => readPickle(copy)).not.toThrow();
    }
  });
});
