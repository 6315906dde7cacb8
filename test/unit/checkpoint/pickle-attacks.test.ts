// Generates a pickle for every attack class picklescan's public test suite covers (github.com/mmaitre314/picklescan,
// tests/test_scanner.py and tests/init_data_files.py: each protocol, `__reduce__` through builtins, process,
// network, filesystem and interpreter modules, the GHSA advisories' gadgets, zip/7z/.npy/.npz containers, wrong
// extensions, broken streams) and asserts the scan is critical on each and silent on benign twins.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildCheckpointInfo } from "../../../nodes/checkpoint/build-info.js";
import { detectCheckpointFindings } from "../../../nodes/checkpoint/detect.js";
import { scanCheckpointFile } from "../../../nodes/checkpoint/file/scan.js";
import type { Finding } from "../../../domain/result.js";
import {
  benignPickle, callStyles, hostilePickle, npyFile, npyObjectArray, numpyObjectArrayPickle, PROTOCOLS, type Protocol, sevenZip,
  zipArchive,
} from "../../support/hostile-containers.js";

const dir = mkdtempSync(join(tmpdir(), "pickle-attacks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let serial = 0;

async function findingsFor(name: string, bytes: Buffer): Promise<Finding[]> {
  const path = join(dir, `${serial++}-${name}`);
  writeFileSync(path, bytes);
  const scan = await scanCheckpointFile(path);
  return detectCheckpointFindings(buildCheckpointInfo(path, {}, { scan, note: null, maxScanBytes: null }));
}

const SAFETY = new Set(["checkpoint.unsafe_pickle", "checkpoint.unverified_content"]);
const safety = (fs: readonly Finding[]) => fs.filter((f) => SAFETY.has(f.id));
const critical = (fs: readonly Finding[]) => fs.filter((f) => f.id === "checkpoint.unsafe_pickle" && f.severity === "critical");

/** Imports picklescan's tests expect to be flagged dangerous, one per attack class or advisory. */
const ATTACKS: Array<[module: string, name: string]> = [
  // __reduce__ through builtins (Python 3 and Python 2 names)
  ["builtins", "eval"], ["builtins", "exec"], ["builtins", "getattr"], ["builtins", "__import__"], ["builtins", "compile"],
  ["builtins", "open"], ["builtins", "breakpoint"], ["builtins", "globals"], ["__builtin__", "eval"], ["__builtin__", "exec"],
  ["__builtin__", "apply"], ["__builtin__", "compile"], ["__builtin__", "getattr"],
  // processes
  ["os", "system"], ["posix", "system"], ["nt", "system"], ["os", "popen"], ["subprocess", "Popen"], ["subprocess", "run"],
  ["subprocess", "check_output"], ["pty", "spawn"], ["_posixsubprocess", "fork_exec"], ["uuid", "_get_command_stdout"],
  ["imaplib", "IMAP4_stream"], ["_osx_support", "_read_output"], ["_aix_support", "_read_cmd_output"],
  ["asyncio.unix_events", "_UnixSubprocessTransport._start"], ["numpy.testing._private.utils", "runstring"],
  // network
  ["socket", "create_connection"], ["requests", "get"], ["requests.api", "get"], ["httplib", "HTTPSConnection"],
  ["http.client", "HTTPSConnection"], ["aiohttp.client", "ClientSession"], ["webbrowser", "open"],
  ["urllib.request", "urlopen"], ["ssl", "get_server_certificate"], ["smtplib", "SMTP"],
  // code execution and interpreters
  ["runpy", "_run_code"], ["runpy", "run_path"], ["code", "InteractiveInterpreter.runcode"], ["timeit", "timeit"],
  ["cProfile", "run"], ["cProfile", "runctx"], ["profile", "run"], ["profile", "Profile.run"], ["profile", "Profile.runctx"],
  ["pdb", "run"], ["bdb", "Bdb"], ["bdb", "Bdb.run"], ["pydoc", "pipepager"], ["pydoc", "locate"],
  ["trace", "Trace.run"], ["trace", "Trace.runctx"], ["doctest", "debug_script"], ["types", "CodeType"], ["pkgutil", "resolve_name"],
  ["idlelib.pyshell", "ModifiedInterpreter.runcode"], ["idlelib.pyshell", "ModifiedInterpreter.runcommand"],
  ["idlelib.run", "Executive.runcode"], ["idlelib.autocomplete", "AutoComplete.fetch_completions"],
  ["idlelib.autocomplete", "AutoComplete.get_entity"], ["idlelib.calltip", "Calltip.fetch_tip"], ["idlelib.calltip", "get_entity"],
  ["idlelib.debugobj", "ObjectTreeItem.SetText"], ["lib2to3.pgen2.grammar", "Grammar.loads"],
  ["lib2to3.pgen2.pgen", "ParserGenerator.make_label"], ["ctypes", "CDLL"],
  ["sys", "exit"], ["_pyrepl.pager", "pipe_pager"], ["test.support.script_helper", "assert_python_ok"],
  ["numpy.f2py.crackfortran", "getlincoef"],
  // filesystem
  ["shutil", "rmtree"], ["distutils.file_util", "write_file"], ["logging", "FileHandler"], ["_io", "FileIO"],
  // nested pickles and call gadgets
  ["pickle", "loads"], ["_pickle", "loads"], ["torch.serialization", "load"], ["functools", "partial"],
  ["operator", "attrgetter"], ["operator", "methodcaller"], ["_operator", "attrgetter"], ["_operator", "methodcaller"],
  ["cloudpickle.cloudpickle", "_make_function"], ["cloudpickle.cloudpickle", "_builtin_type"],
  ["cloudpickle.cloudpickle", "_function_setstate"], ["cloudpickle.cloudpickle", "_make_cell"],
  ["cloudpickle.cloudpickle", "_make_empty_cell"], ["cloudpickle.cloudpickle", "subimport"],
  // package installation
  ["pip", "main"], ["venv", "create"], ["ensurepip", "_run_pip"],
  // torch gadgets of the GHSA advisories
  ["torch._inductor.codecache", "compile_file"], ["torch.jit.unsupported_tensor_ops", "execWrapper"],
  ["torch._dynamo.guards", "GuardBuilder.get"], ["torch.fx.experimental.symbolic_shapes", "ShapeEnv.evaluate_guards_expression"],
  ["torch.utils._config_module", "ConfigModule.load_config"], ["torch.utils.collect_env", "run"],
  ["torch.utils.data.datapipes.utils.decoder", "basichandlers"], ["torch.utils.bottleneck.__main__", "run_cprofile"],
  ["torch.utils.bottleneck.__main__", "run_autograd_prof"],
];

describe("every attack class, in every protocol and call style", () => {
  const cases = ATTACKS.flatMap(([module, name]) => PROTOCOLS.map((p) => [module, name, p] as const));
  it.each(cases)("%s.%s, protocol %i: critical in every call style", async (module, name, protocol) => {
    for (const style of callStyles(protocol)) {
      const found = critical(await findingsFor("attack.pkl", hostilePickle(protocol, module, name, style)));
      expect(found, `${style}`).toHaveLength(1);
      expect(found[0]!.description, style).toContain(name);
    }
  });

  it.each(PROTOCOLS)("a benign pickle of protocol %i is silent", async (protocol) => {
    expect(safety(await findingsFor("benign.pkl", benignPickle(protocol)))).toEqual([]);
  });
});

/** Representative attacks for the container matrix: one per class. */
const CONTAINED: Array<[string, string]> = [["builtins", "eval"], ["posix", "system"], ["socket", "create_connection"], ["runpy", "_run_code"]];
const containerCases = CONTAINED.flatMap(([m, n]) => PROTOCOLS.map((p) => [m, n, p] as const));

describe("containers and disguises", () => {
  it.each(containerCases)("%s.%s (protocol %i) is critical inside zip, npy, npz and 7z, under any name", async (module, name, protocol) => {
    const pickle = hostilePickle(protocol, module, name);
    const carriers: Array<[string, Buffer]> = [
      ["model.zip", zipArchive([{ name: "data.pkl", data: pickle }])],
      ["model.zip", zipArchive([{ name: "archive/data.pkl", data: pickle, deflate: true }])],
      // Wrong extensions: a zip named like a torch file, a pickle inside it named like text, a raw pickle named .bin.
      ["pytorch_model.bin", zipArchive([{ name: "archive/data.pkl", data: pickle }, { name: "archive/version", data: Buffer.from("3\n") }])],
      ["model.pt", zipArchive([{ name: "data.txt", data: pickle }])],
      ["weights.bin", zipArchive([{ name: "weights.json", data: pickle, deflate: true }])],
      // The encryption flag set over a plain member: Python's zipfile gives up, torch's reader does not.
      ["model.pt", zipArchive([{ name: "archive/data.pkl", data: pickle, flags: 0x1 }])],
      ["model.bin", pickle],
      ["array.npy", npyObjectArray(pickle)],
      ["arrays.npz", zipArchive([{ name: "a.npy", data: npyFile("<i8", [1], Buffer.alloc(8)) }, { name: "b.npy", data: npyObjectArray(pickle) }])],
      ["arrays.npz", zipArchive([{ name: "b.npy", data: npyObjectArray(pickle), deflate: true }])],
      ["model.7z", sevenZip(pickle)],
    ];
    for (const [file, bytes] of carriers) {
      // Protocol 0/1 pickles have no PROTO opcode to find them by inside bytes that are not parsed (docs/checkpoints.md).
      if (protocol < 2 && file === "model.7z") continue;
      expect(critical(await findingsFor(file, bytes)), `${file}`).toHaveLength(1);
    }
  });

  it.each(PROTOCOLS)("benign twins (protocol %i) in the same containers are silent", async (protocol) => {
    const pickle = benignPickle(protocol);
    const carriers: Array<[string, Buffer]> = [
      ["model.zip", zipArchive([{ name: "data.pkl", data: pickle }])],
      ["model.pt", zipArchive([{ name: "data.txt", data: pickle, deflate: true }])],
      ["arrays.npz", zipArchive([{ name: "a.npy", data: npyFile("<f4", [2, 2], Buffer.alloc(16)) }, { name: "b.npy", data: npyFile("<i8", [3], Buffer.alloc(24)), deflate: true }])],
      ["array.npy", npyFile("<f4", [4], Buffer.alloc(16))],
    ];
    for (const [file, bytes] of carriers) expect(safety(await findingsFor(file, bytes)), file).toEqual([]);
  });

  it("a 7z archive is never silent: medium 'could not be verified' when no pickle is visible in it", async () => {
    const compressed = Buffer.concat([sevenZip(Buffer.from("not a pickle, some compressed bytes")).subarray(0, 32), Buffer.alloc(64, 0x5d)]);
    const found = safety(await findingsFor("model.7z", compressed));
    expect(found).toEqual([expect.objectContaining({ id: "checkpoint.unverified_content", severity: "medium" })]);
    expect(found[0]!.description).toMatch(/could not look inside/);
  });

  it("a truly encrypted or unknown-compression member is medium 'could not be verified', not silence", async () => {
    const encrypted = zipArchive([{ name: "data.pkl", data: Buffer.from("\x13\x9a\x02random-ciphertext", "latin1"), flags: 0x1 }]);
    expect(safety(await findingsFor("secret.zip", encrypted))).toEqual([expect.objectContaining({ id: "checkpoint.unverified_content", severity: "medium" })]);
    const lzma = zipArchive([{ name: "data.pkl", data: Buffer.from("whatever") }]);
    lzma.writeUInt16LE(14, 8); // local header: method 14 (LZMA)
    lzma.writeUInt16LE(14, lzma.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 10); // central directory too
    expect(safety(await findingsFor("lzma.zip", lzma))).toEqual([expect.objectContaining({ id: "checkpoint.unverified_content", severity: "medium" })]);
  });
});

describe("broken streams", () => {
  it.each(PROTOCOLS)("protocol %i: a stream cut after its dangerous call, or corrupted after it, is still critical", async (protocol) => {
    const whole = hostilePickle(protocol, "os", "system");
    const cut = whole.subarray(0, whole.length - 1); // no STOP
    expect(critical(await findingsFor("cut.pkl", cut))).toHaveLength(1);
    const garbage = Buffer.concat([cut, Buffer.from([0xff, 0xfe, 0x00])]); // invalid opcode where STOP should be
    expect(critical(await findingsFor("garbage.pkl", garbage))).toHaveLength(1);
  });

  it.each(PROTOCOLS)("protocol %i: a hostile pickle hidden after a benign one's STOP is critical", async (protocol) => {
    const stacked = Buffer.concat([benignPickle(protocol), hostilePickle(protocol, "subprocess", "Popen")]);
    expect(critical(await findingsFor("stacked.pkl", stacked))).toHaveLength(1);
  });

  it("a benign stream cut short is medium (not fully checked), never critical", async () => {
    const whole = benignPickle(4);
    const found = safety(await findingsFor("cut-benign.pkl", whole.subarray(0, whole.length - 3)));
    expect(found.map((f) => f.severity)).toEqual(["medium"]);
  });
});

/** A protocol-2 pickle of a plain value, as torch's legacy writer dumps its magic number, version, sys_info and keys. */
const plain = (opcodes: number[]) => Buffer.from([0x80, 0x02, ...opcodes, 0x2e]);

describe("the tricks of picklescan's corpus files", () => {
  it.each([0x1, 0x20, 0x40])("a zip member carrying general-purpose flag 0x%s over a plain pickle is critical", async (flags) => {
    const zip = zipArchive([{ name: "data.pkl", data: hostilePickle(4, "builtins", "eval"), flags }]);
    expect(critical(await findingsFor("malicious1_flags.zip", zip))).toHaveLength(1);
  });

  it("a zip whose central directory names the member differently, or whose CRC is wrong, is still critical", async () => {
    const pickle = hostilePickle(4, "builtins", "eval");
    expect(critical(await findingsFor("cd.zip", zipArchive([{ name: "datap.kl", centralName: "data.pkl", data: pickle }])))).toHaveLength(1);
    expect(critical(await findingsFor("crc.zip", zipArchive([{ name: "data.pkl", data: pickle, crc: 0xdeadbeef }])))).toHaveLength(1);
  });

  it("a legacy torch file whose magic number comes from eval, with os.system in a later pickle, names both", async () => {
    const file = Buffer.concat([
      hostilePickle(2, "__builtin__", "eval", "reduce", "0x1950A86A20F9469CFC6C"), plain([0x4d, 0xe9, 0x03]), plain([0x7d]), plain([0x5d]),
      hostilePickle(2, "posix", "system"), plain([0x4e]),
    ]);
    const [found] = critical(await findingsFor("pytorch_magic_bypass.pt", file));
    expect(found!.description).toContain("eval");
    expect(found!.description).toContain("system");
  });

  it("STACK_GLOBAL fed by protocol-0 STRING operands, without PROTO, is critical", async () => {
    const bytes = Buffer.from("S'os'\nS'system'\n\x93S'ls'\n\x85R.", "latin1");
    expect(critical(await findingsFor("malicious23.pkl", bytes))).toHaveLength(1);
  });

  it("a dangerous call followed by a memo key never stored (the stream breaks there) is critical", async () => {
    const call = hostilePickle(4, "os", "system");
    const bytes = Buffer.concat([call.subarray(0, call.length - 1), Buffer.from([0x30, 0x8c, 2]), Buffer.from("os"), Buffer.from([0x94, 0x68, 3, 0x2e])]);
    expect(critical(await findingsFor("keyerror-exploit.pkl", bytes))).toHaveLength(1);
  });

  it("a STACK_GLOBAL whose operands are not strings cannot be resolved: critical", async () => {
    // BININT 42 memoized, 'os' memoized, both fetched back: STACK_GLOBAL(42, 'os') imports what the scan cannot name.
    const bytes = Buffer.concat([Buffer.from([0x80, 0x04, 0x4a]), Buffer.from([42, 0, 0, 0]), Buffer.from([0x94, 0x8c, 2]), Buffer.from("os"), Buffer.from([0x94, 0x68, 0, 0x68, 1, 0x93, 0x29, 0x52, 0x2e])]);
    expect(critical(await findingsFor("type-confusion.pkl", bytes))).toHaveLength(1);
  });

  it("benign twins: a GLOBAL whose name is not UTF-8 (Python stops before importing), a PNG named .pt, np.save object arrays", async () => {
    expect(safety(await findingsFor("not_a_pickle.bin", Buffer.from("cmod\n\xf8\n", "latin1")))).toEqual([]);
    expect(safety(await findingsFor("bad_pytorch.pt", Buffer.from("\x89PNG\r\n\x1a\n", "latin1")))).toEqual([]);
    const objects = npyObjectArray(numpyObjectArrayPickle());
    expect(safety(await findingsFor("object_array.npy", objects))).toEqual([]);
    const npz = zipArchive([{ name: "a.npy", data: objects }, { name: "b.npy", data: objects, deflate: true }]);
    expect(safety(await findingsFor("object_arrays.npz", npz))).toEqual([]);
  });

  it("a GLOBAL with an undecodable name after a dangerous call still reports the call", async () => {
    const call = hostilePickle(2, "os", "system");
    const bytes = Buffer.concat([call.subarray(0, call.length - 1), Buffer.from("cmod\n\xf8\n", "latin1")]);
    expect(critical(await findingsFor("malicious-invalid-bytes.pkl", bytes))).toHaveLength(1);
  });
});
