import { describe, expect, it } from "vitest";
import { classifyGlobal } from "../../../nodes/checkpoint/file/pickle-policy.js";
import { scanCheckpointFile } from "../../../nodes/checkpoint/file/scan.js";
import { aboveLow, byId, findingsOf, fixture, infoOf } from "./fixtures.js";

const imports = async (file: string) => {
  const scan = await scanCheckpointFile(fixture(`pickle/${file}`));
  return scan.pickles.flatMap((p) => p.globals);
};

describe("pickle import policy", () => {
  it.each([
    ["posix", "system", "process"], ["nt", "system", "process"], ["os", "system", "process"], ["os.path", "join", "process"],
    ["subprocess", "Popen", "process"], ["pty", "spawn", "process"],
    ["builtins", "eval", "code"], ["builtins", "exec", "code"], ["__builtin__", "eval", "code"], ["builtins", "getattr", "code"],
    ["builtins", "__import__", "code"], ["builtins", "compile", "code"], ["builtins", "open", "code"], ["runpy", "_run_code", "code"],
    ["socket", "create_connection", "network"], ["http.client", "HTTPSConnection", "network"], ["httplib", "HTTPConnection", "network"],
    ["requests.api", "get", "network"], ["urllib.request", "urlopen", "network"], ["aiohttp.client", "ClientSession", "network"],
    ["webbrowser", "open", "network"], ["shutil", "rmtree", "filesystem"], ["pickle", "loads", "nested_pickle"],
    ["torch.serialization", "load", "nested_pickle"], ["functools", "partial", "call_gadget"],
    ["operator", "attrgetter", "call_gadget"], ["_operator", "methodcaller", "call_gadget"], ["sys", "exit", "interpreter"],
    ["ctypes", "CDLL", "interpreter"], ["pdb", "run", "interpreter"], ["pip", "main", "package"], ["pip._internal", "main", "package"],
    ["unknown", "system", "unresolved"],
  ])("%s.%s is dangerous (%s)", (module, name, danger) => {
    expect(classifyGlobal(module, name)).toMatchObject({ safety: "dangerous", danger, weightsOnly: false });
  });

  it.each([
    ["torch._utils", "_rebuild_tensor_v2", true], ["torch._utils", "_rebuild_parameter", true], ["torch", "FloatStorage", true],
    ["torch", "BFloat16Storage", true], ["torch", "Size", true], ["torch", "device", true], ["torch", "bfloat16", true],
    ["collections", "OrderedDict", true], ["_codecs", "encode", true], ["numpy.core.multiarray", "_reconstruct", false],
    ["numpy", "dtype", false], ["lightning.fabric.utilities.data", "AttributeDict", false], ["argparse", "Namespace", false],
    ["__builtin__", "set", true],
  ])("%s.%s is safe (weights_only allows it: %s)", (module, name, weightsOnly) => {
    expect(classifyGlobal(module, name)).toEqual({ safety: "safe", danger: null, library: null, weightsOnly });
  });

  it("calls anything else suspicious, and never takes a safe name's prefix for safety", () => {
    expect(classifyGlobal("__main__", "UserModel").safety).toBe("suspicious");
    expect(classifyGlobal("builtins", "print").safety).toBe("suspicious");
    expect(classifyGlobal("ossify", "x").safety).toBe("suspicious");
    expect(classifyGlobal("torchx", "Linear").safety).toBe("suspicious");
    expect(classifyGlobal("torch._utils", "_load_from_bytes").safety).toBe("suspicious");
  });
});

describe("pickle safety scan on hostile files", () => {
  it.each([
    ["process-os-system.pkl", "posix.system", "process"],
    ["process-subprocess.pkl", "subprocess.Popen", "process"],
    ["code-builtins-eval.pkl", "__builtin__.eval", "code"],
    ["code-runpy.pkl", "runpy.run_path", "code"],
    ["code-exec-memo.pkl", "builtins.exec", "code"],
    ["network-socket.pkl", "socket.create_connection", "network"],
    ["network-webbrowser.pkl", "webbrowser.open", "network"],
    ["network-http-client.pkl", "http.client.HTTPSConnection", "network"],
    ["network-requests.pkl", "requests.api.get", "network"],
    ["filesystem-shutil.pkl", "shutil.rmtree", "filesystem"],
    ["nested-pickle.pkl", "pickle.loads", "nested_pickle"],
    ["gadget-functools-partial.pkl", "functools.partial", "call_gadget"],
    ["gadget-operator-attrgetter.pkl", "operator.attrgetter", "call_gadget"],
    ["interpreter-sys.pkl", "sys.exit", "interpreter"],
    ["interpreter-ctypes.pkl", "ctypes.CDLL", "interpreter"],
    ["package-pip.pkl", "pip.main", "package"],
    ["inst-protocol0.pkl", "os.system", "process"],
    ["second-pickle.pkl", "posix.system", "process"],
    ["unresolved-stack-global.pkl", "unknown.system", "unresolved"],
  ])("%s imports %s → critical finding naming it", async (file, global, danger) => {
    const found = (await imports(file)).filter((g) => g.safety === "dangerous");
    expect(found.map((g) => `${g.module}.${g.name}`)).toContain(global);
    expect(found.find((g) => `${g.module}.${g.name}` === global)?.danger).toBe(danger);
    const [finding] = byId(findingsOf(await infoOf(`pickle/${file}`)), "checkpoint.unsafe_pickle");
    expect(finding?.severity).toBe("critical");
    expect(finding?.description).toContain(global);
    expect(finding?.description).toMatch(/Do not load this file/);
  });

  it("reports a STACK_GLOBAL whose operands come from the memo under its real name", async () => {
    const g = await imports("code-exec-memo.pkl");
    expect(g).toEqual([expect.objectContaining({ module: "builtins", name: "exec", opcode: "STACK_GLOBAL" })]);
  });

  it("flags EXT opcodes and unknown classes as medium, not critical", async () => {
    const ext = byId(findingsOf(await infoOf("pickle/ext-opcode.pkl")), "checkpoint.unsafe_pickle");
    expect(ext).toEqual([expect.objectContaining({ severity: "medium" })]);
    expect(ext[0]!.evidence[0]!.text).toMatch(/EXT opcodes \(codes 257\)/);
    const user = byId(findingsOf(await infoOf("pickle/user-class.pkl")), "checkpoint.unsafe_pickle");
    expect(user).toEqual([expect.objectContaining({ severity: "medium" })]);
    expect(user[0]!.description).toContain("__main__.UserModel");
  });

  it("finds the payload inside a real torch archive's data.pkl", async () => {
    const info = await infoOf("torch/hostile.pt");
    const [finding] = byId(findingsOf(info), "checkpoint.unsafe_pickle");
    expect(finding).toMatchObject({ severity: "critical" });
    expect(finding!.evidence[0]!.artifact).toBe("model_checkpoint_artifacts.checkpoint_path:hostile/data.pkl");
    expect(info.tensors).toHaveLength(11);
  });

  it.each(["benign-protocol0.pkl", "benign-protocol2.pkl", "benign-protocol5.pkl", "benign-numpy.pkl"])("%s produces no finding above low", async (file) => {
    expect(aboveLow(findingsOf(await infoOf(`pickle/${file}`)))).toEqual([]);
  });

  it("says when only safe imports still need weights_only=False", async () => {
    const numpy = byId(findingsOf(await infoOf("pickle/benign-numpy.pkl")), "checkpoint.requires_unsafe_load");
    expect(numpy).toEqual([expect.objectContaining({ severity: "low" })]);
    expect(numpy[0]!.description).toContain("numpy.core.multiarray._reconstruct");
    expect(byId(findingsOf(await infoOf("torch/smallnet.pt")), "checkpoint.requires_unsafe_load")).toEqual([]);
  });
});
