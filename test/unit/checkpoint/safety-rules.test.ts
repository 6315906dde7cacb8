import { describe, expect, it } from "vitest";
import { detectLoadCode } from "../../../nodes/checkpoint/detectors/load-code.js";
import { detectRequiresUnsafeLoad, detectUnsafePickle, detectUnverifiedContent } from "../../../nodes/checkpoint/detectors/safety.js";
import type { LoadCode } from "../../../nodes/checkpoint/file/scan-types.js";
import { only, pickleReport, scannedInfo } from "./checkpoint-info.js";

/** CK-01 on hand-built pickle reports and load-code lists: the grading, what each finding names, and its limits. */
const pickles = (...reports: ReturnType<typeof pickleReport>[]) => scannedInfo({ pickles: reports });
const REBUILD: [string, string] = ["torch._utils", "_rebuild_tensor_v2"];

describe("CK-01 unsafe pickle: dangerous imports", () => {
  it("critical, naming each dangerous import once, with its opcode, danger class and count", () => {
    const report = pickleReport("archive/data.pkl", [REBUILD, ["os", "system"]]);
    report.globals[1]!.count = 3;
    const f = only(detectUnsafePickle(pickles(report, pickleReport("other.pkl", [["os", "system"]]))));
    expect(f).toMatchObject({ severity: "critical", confidence: 0.95, title: "Checkpoint pickle imports dangerous code: do not load it" });
    expect(f.description).toContain("imports os.system.");
    expect(f.evidence[0]).toMatchObject({ artifact: "model_checkpoint_artifacts.checkpoint_path:archive/data.pkl", observed: "os.system", values: { class: "process", count: 3 } });
    expect(f.evidence[0]!.text).toMatch(/^archive\/data\.pkl imports os\.system \(GLOBAL\), which \w/);
    expect(f.evidence).toHaveLength(2);
  });

  it.each([
    ["process", "subprocess", "Popen"],
    ["code", "builtins", "eval"],
    ["network", "socket", "socket"],
    ["filesystem", "shutil", "rmtree"],
    ["nested_pickle", "pickle", "loads"],
    ["call_gadget", "functools", "partial"],
    ["interpreter", "sys", "exit"],
    ["package", "pip", "main"],
    ["unresolved", "unknown", "unknown"],
  ])("a %s import (%s.%s) is critical and says what it does", (danger, module, name) => {
    const f = only(detectUnsafePickle(pickles(pickleReport("data.pkl", [[module, name]]))));
    expect(f.severity).toBe("critical");
    expect(f.evidence[0]!.values).toEqual({ class: danger, count: 1 });
    expect(f.evidence[0]!.text).toMatch(/, which \w+.*\w\.$/);
  });

  it("each danger class says something of its own", () => {
    const classes = [["subprocess", "Popen"], ["builtins", "eval"], ["socket", "socket"], ["shutil", "rmtree"], ["pickle", "loads"], ["functools", "partial"], ["sys", "exit"], ["pip", "main"], ["unknown", "unknown"]];
    const texts = classes.map(([m, n]) => only(detectUnsafePickle(pickles(pickleReport("data.pkl", [[m!, n!]])))).evidence[0]!.text.split(", which ")[1]);
    expect(new Set(texts).size).toBe(9);
    for (const t of texts) expect(t).not.toContain("undefined");
  });

  it("names every dangerous import in the description", () => {
    const f = only(detectUnsafePickle(pickles(pickleReport("data.pkl", [["os", "system"], ["builtins", "eval"]]))));
    expect(f.description).toContain("imports os.system, builtins.eval.");
  });

  it("a dangerous import outranks unknown ones, whose evidence is still listed", () => {
    const f = only(detectUnsafePickle(pickles(pickleReport("data.pkl", [["my_pkg", "Net"], ["os", "system"]]))));
    expect(f.severity).toBe("critical");
    expect(f.evidence.map((e) => e.observed)).toEqual(["os.system", "my_pkg.Net"]);
  });
});

describe("CK-01 unsafe pickle: imports the scan cannot vouch for", () => {
  it("unknown classes are medium, named up to 6 then an ellipsis, evidence up to 10", () => {
    const seven = Array.from({ length: 7 }, (_, i): [string, string] => ["my_pkg", `C${i}`]);
    const f = only(detectUnsafePickle(pickles(pickleReport("data.pkl", seven))));
    expect(f).toMatchObject({ severity: "medium", confidence: 0.7, title: "Checkpoint pickle imports code the scan cannot vouch for" });
    expect(f.description).toContain("imports my_pkg.C0, my_pkg.C1, my_pkg.C2, my_pkg.C3, my_pkg.C4, my_pkg.C5…, which");
    expect(f.evidence[0]).toMatchObject({ observed: "my_pkg.C0", artifact: "model_checkpoint_artifacts.checkpoint_path:data.pkl" });
    expect(f.evidence[0]!.text).toMatch(/^data\.pkl imports my_pkg\.C0, \w/);
    const twelve = Array.from({ length: 12 }, (_, i): [string, string] => ["my_pkg", `C${i}`]);
    expect(only(detectUnsafePickle(pickles(pickleReport("data.pkl", twelve)))).evidence).toHaveLength(10);
    const six = only(detectUnsafePickle(pickles(pickleReport("data.pkl", seven.slice(0, 6)))));
    expect(six.description).toContain("my_pkg.C5, which");
  });

  it("EXT opcodes, an unreadable and a partly read pickle are medium without a name, each with its own evidence", () => {
    const f = only(detectUnsafePickle(pickles(
      pickleReport("a.pkl", [REBUILD], { extCodes: [1, 2] }),
      pickleReport("b.pkl", [REBUILD], { error: "unknown opcode 0xff" }),
      pickleReport("c.pkl", [REBUILD], { partial: true, bytes: 4096 }),
    )));
    expect(f.severity).toBe("medium");
    expect(f.description).toContain("could not be checked");
    expect(f.evidence.map((e) => [e.artifact.split(":")[1], e.observed])).toEqual([["a.pkl", 2], ["b.pkl", undefined], ["c.pkl", undefined]]);
    expect(f.evidence[0]!.text).toContain("(codes 1, 2)");
    expect(f.evidence[1]!.text).toContain("(unknown opcode 0xff)");
    expect(f.evidence[2]!.text).toContain("first 4096 bytes");
  });

  it("safe-listed imports alone are no unsafe pickle", () => {
    expect(detectUnsafePickle(pickles(pickleReport("data.pkl", [REBUILD, ["collections", "OrderedDict"]])))).toEqual([]);
    expect(detectUnsafePickle(scannedInfo())).toEqual([]);
  });
});

describe("CK-01 library pickle", () => {
  it("low, naming each library once and the versions the file records, in the text and the advice", () => {
    const a = pickleReport("model.joblib", [["sklearn.ensemble._forest", "RandomForestClassifier"], ["sklearn.tree._classes", "DecisionTreeClassifier"], ["collections", "OrderedDict"]], { versions: [{ library: "scikit-learn", version: "1.5.0" }] });
    const f = only(detectUnsafePickle(pickles(a)));
    expect(f).toMatchObject({ id: "checkpoint.library_pickle", severity: "low", confidence: 0.8, title: "Loading this file runs scikit-learn code" });
    expect(f.description).toContain(" The file records scikit-learn 1.5.0.");
    expect(f.recommendation!.action).toContain("(scikit-learn 1.5.0)");
    expect(f.evidence).toEqual([{
      rule_id: "CK-01", artifact: "model_checkpoint_artifacts.checkpoint_path:model.joblib",
      text: "model.joblib imports sklearn.ensemble._forest.RandomForestClassifier, sklearn.tree._classes.DecisionTreeClassifier.",
      observed: 2, values: { "scikit-learn": "1.5.0" },
    }]);
  });

  it("several libraries and versions are listed, separated", () => {
    const f = only(detectUnsafePickle(pickles(pickleReport("a.pkl", [["sklearn.linear_model", "LogisticRegression"], ["numpy.random._pickle", "__randomstate_ctor"]], { versions: [{ library: "scikit-learn", version: "1.5.0" }, { library: "NumPy", version: "1.26.4" }] }))));
    expect(f.title).toBe("Loading this file runs scikit-learn, NumPy code");
    expect(f.description).toContain("only classes of scikit-learn, NumPy (and plain containers)");
    expect(f.description).toContain("The file records scikit-learn 1.5.0, NumPy 1.26.4.");
    expect(f.recommendation!.action).toContain("(scikit-learn 1.5.0, NumPy 1.26.4)");
    const eight = Array.from({ length: 8 }, (_, i): [string, string] => ["sklearn.linear_model", `Model${i}`]);
    expect(only(detectUnsafePickle(pickles(pickleReport("a.pkl", eight)))).evidence[0]!.text).toMatch(/Model7\.$/);
  });

  it("without recorded versions it says nothing of them; a pickle with no library import adds no evidence; 8 names, then how many more", () => {
    const many = Array.from({ length: 10 }, (_, i): [string, string] => ["sklearn.linear_model", `Model${i}`]);
    const f = only(detectUnsafePickle(pickles(pickleReport("a.pkl", many), pickleReport("b.pkl", [REBUILD]))));
    expect(f.description).not.toContain("records");
    expect(f.description).toMatch(/that wrote it\.$/);
    expect(f.recommendation!.action).toMatch(/^Load only with the same library version and/);
    expect(f.evidence).toHaveLength(1);
    expect(f.evidence[0]!.text).toMatch(/Model7 and 2 more\.$/);
    expect(f.evidence[0]!.observed).toBe(10);
  });
});

describe("CK-01 requires weights_only=False", () => {
  it("safe imports outside torch's allowlist, each named once; none when all are inside it or any import is not safe", () => {
    const attr: [string, string] = ["pytorch_lightning.utilities.parsing", "AttributeDict"];
    const f = only(detectRequiresUnsafeLoad(pickles(pickleReport("a.pkl", [REBUILD, attr, ["argparse", "Namespace"]]), pickleReport("b.pkl", [attr]))));
    expect(f).toMatchObject({ severity: "low", confidence: 0.8 });
    expect(f.description).toContain("imports pytorch_lightning.utilities.parsing.AttributeDict, argparse.Namespace, which");
    expect(f.evidence).toEqual([{ rule_id: "CK-01", artifact: "model_checkpoint_artifacts.checkpoint_path", text: "Imports outside torch's weights_only allowlist: pytorch_lightning.utilities.parsing.AttributeDict, argparse.Namespace.", observed: 2 }]);
    expect(detectRequiresUnsafeLoad(pickles(pickleReport("a.pkl", [REBUILD, ["collections", "OrderedDict"]])))).toEqual([]);
    expect(detectRequiresUnsafeLoad(pickles(pickleReport("a.pkl", [attr, ["my_pkg", "Net"]])))).toEqual([]);
  });
});

describe("CK-01 unverified content", () => {
  it("medium, naming up to 6 entries then an ellipsis, the first reason, and evidence up to 8", () => {
    const entries = Array.from({ length: 9 }, (_, i) => ({ entry: `part${i}.bin`, reason: i === 0 ? "it is encrypted" : "it is compressed with LZMA" }));
    const f = only(detectUnverifiedContent(scannedInfo({ unverified: entries })));
    expect(f).toMatchObject({ severity: "medium", confidence: 0.6 });
    expect(f.description).toContain("inside part0.bin, part1.bin, part2.bin, part3.bin, part4.bin, part5.bin…: it is encrypted.");
    expect(f.evidence).toHaveLength(8);
    expect(f.evidence[0]).toEqual({ rule_id: "CK-01", artifact: "model_checkpoint_artifacts.checkpoint_path:part0.bin", text: "part0.bin could not be checked: it is encrypted." });
    const one = only(detectUnverifiedContent(scannedInfo({ unverified: entries.slice(0, 6) })));
    expect(one.description).toContain("part5.bin: it is encrypted.");
    expect(detectUnverifiedContent(scannedInfo())).toEqual([]);
  });
});

describe("CK-01 code run on load", () => {
  const code = (kind: LoadCode["kind"], name: string, where = "layer", detail = "d"): LoadCode => ({ kind, where, name, detail });

  it("graded by its worst item; the title and advice follow the worst kind; every item is evidence with its own grade", () => {
    const f = only(detectLoadCode(scannedInfo({ loadCode: [code("onnx_custom_domain", "com.acme:Op", "node_1"), code("tf_op", "ReadFile", "node_2", "reads a file")] })));
    expect(f).toMatchObject({ severity: "critical", confidence: 0.9, title: "Model file holds code that runs when it is loaded" });
    expect(f.description).toMatch(/^2 items of load-time code: ReadFile in node_2 \(reads a file\)\.$/);
    expect(f.recommendation!.action).toContain("SavedModel");
    expect(f.evidence.map((e) => [e.observed, e.artifact, e.text.endsWith("(medium).") || e.text.endsWith("(critical).")])).toEqual([
      ["com.acme:Op", "model_checkpoint_artifacts.checkpoint_path:node_1", true],
      ["ReadFile", "model_checkpoint_artifacts.checkpoint_path:node_2", true],
    ]);
    expect(f.evidence[1]!.text).toMatch(/^\w.* ReadFile in node_2: reads a file \(critical\)\.$/);
  });

  it("below critical the title names the kind of code that is missing, the confidence is 0.7", () => {
    const custom = only(detectLoadCode(scannedInfo({ loadCode: [code("keras_custom_object", "my_pkg.layers.Scale", "", "module my_pkg.layers")] })));
    expect(custom).toMatchObject({ severity: "medium", confidence: 0.7, title: "Model file needs code that is not in it (custom Keras object)" });
    expect(custom.description).toBe("1 item of load-time code: my_pkg.layers.Scale in the model (module my_pkg.layers).");
    expect(custom.recommendation!.action).toContain("custom_objects");
    const op = only(detectLoadCode(scannedInfo({ loadCode: [code("tf_op", "MatchingFiles")] })));
    expect(op).toMatchObject({ severity: "high", title: "Model file needs code that is not in it (TensorFlow operation)" });
    const onnx = only(detectLoadCode(scannedInfo({ loadCode: [code("onnx_custom_domain", "com.acme:Op")] })));
    expect(onnx.title).toBe("Model file needs code that is not in it (ONNX operator of a custom domain)");
    expect(onnx.recommendation!.action).toContain("operator library");
    expect(only(detectLoadCode(scannedInfo({ loadCode: [code("keras_custom_object", "os.system")] }))).severity).toBe("critical");
  });

  it("names 4 of the worst items then an ellipsis, and keeps 12 as evidence", () => {
    const lambdas = Array.from({ length: 13 }, (_, i) => code("keras_lambda", "Lambda", `lambda_${i}`));
    const f = only(detectLoadCode(scannedInfo({ loadCode: lambdas })));
    expect(f.description).toMatch(/^13 items of load-time code: .*lambda_3 \(d\)…\.$/);
    expect(f.description).not.toContain("lambda_4");
    expect(f.evidence).toHaveLength(12);
    expect(f.recommendation!.action).toContain("safe_mode");
    const four = only(detectLoadCode(scannedInfo({ loadCode: lambdas.slice(0, 4) })));
    expect(four.description).toMatch(/lambda_3 \(d\)\.$/);
    expect(detectLoadCode(scannedInfo())).toEqual([]);
  });
});
