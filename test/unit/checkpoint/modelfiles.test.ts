import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scanCheckpointFile } from "../../../nodes/checkpoint/file/scan.js";
import { sniffFormat } from "../../../nodes/checkpoint/file/sniff.js";
import { gradeLoadCode } from "../../../nodes/checkpoint/load-code-policy.js";
import { byId, findingsOf, fixture, infoOf } from "./fixtures.js";

/**
 * The model-file corpus (scripts/fixtures/modelfiles/make_corpus.py): Keras, SavedModel, ONNX and GGUF files written
 * by their own libraries. Each fault is found at its severity, healthy files raise nothing high or critical, and the
 * hostile code (a Lambda and a tf.function that would write the canary) is never run by the scan.
 */
const CANARY = "/tmp/ml-diagnose-modelfiles-canary";
const at = (relative: string) => `modelfiles/${relative}`;
const severities = async (relative: string) => findingsOf(await infoOf(at(relative))).map((f) => `${f.severity} ${f.id}`).sort();

const EXPECTED: Record<string, string[]> = {
  "keras/benign.keras": ["info checkpoint.model_format"],
  "keras/legacy-benign.h5": ["info checkpoint.model_format"],
  "keras/benign.weights.h5": ["info checkpoint.model_format", "low checkpoint.missing_metadata"],
  "keras/lambda.keras": ["critical checkpoint.code_on_load", "info checkpoint.model_format"],
  "keras/legacy-lambda.h5": ["critical checkpoint.code_on_load", "info checkpoint.model_format"],
  "keras/legacy-nan.h5": ["critical checkpoint.nonfinite_weights", "info checkpoint.model_format"],
  "keras/custom-layer.keras": ["info checkpoint.model_format", "medium checkpoint.code_on_load"],
  "onnx/inconsistent.onnx": ["high checkpoint.corrupt_file", "info checkpoint.model_format"],
  "onnx/benign.onnx": ["info checkpoint.model_format"],
  "onnx/external/model.onnx": ["info checkpoint.model_format"],
  "onnx/nan-initializer.onnx": ["critical checkpoint.nonfinite_weights", "info checkpoint.model_format"],
  "onnx/custom-domain.onnx": ["info checkpoint.model_format", "medium checkpoint.code_on_load"],
  "onnx/truncated.onnx": ["critical checkpoint.corrupt_file", "info checkpoint.model_format"],
  "onnx/external-escape.onnx": ["high checkpoint.corrupt_file", "info checkpoint.model_format"],
  "gguf/benign.gguf": ["info checkpoint.dtype_mix", "info checkpoint.model_format"],
  "gguf/nan.gguf": ["critical checkpoint.nonfinite_weights", "info checkpoint.dtype_mix", "info checkpoint.model_format"],
  "gguf/truncated.gguf": ["critical checkpoint.corrupt_file", "info checkpoint.dtype_mix", "info checkpoint.model_format"],
  "savedmodel/benign/saved_model.pb": ["info checkpoint.model_format"],
  "savedmodel/readfile/saved_model.pb": ["critical checkpoint.code_on_load", "info checkpoint.model_format"],
  "savedmodel/nan-variable/saved_model.pb": ["critical checkpoint.nonfinite_weights", "info checkpoint.model_format"],
};

beforeAll(() => rmSync(CANARY, { force: true }));

describe("model files written by their own libraries", () => {
  it.each(Object.entries(EXPECTED))("%s: %j", async (file, expected) => {
    expect(await severities(file)).toEqual([...expected].sort());
  });

  it("never runs the hostile code it reads (no canary file after scanning every file)", async () => {
    for (const file of Object.keys(EXPECTED)) await scanCheckpointFile(fixture(at(file)));
    expect(existsSync(CANARY)).toBe(false);
  });
});

describe("what each reader reports", () => {
  it("Keras: the Lambda's layer and what it holds, and the versions from metadata.json / the HDF5 attributes", async () => {
    const info = await infoOf(at("keras/lambda.keras"));
    expect(info.loadCode).toEqual([expect.objectContaining({ kind: "keras_lambda", where: "sneaky_lambda", detail: expect.stringContaining("marshalled Python bytecode") })]);
    expect(byId(findingsOf(info), "checkpoint.code_on_load")[0]!.description).toContain("sneaky_lambda");
    expect(info.fileFacts.keras_version).toBe("3.15.1");
    expect((await infoOf(at("keras/legacy-nan.h5"))).fileFacts).toMatchObject({ keras_version: "3.15.1", backend: "tensorflow" });
  });

  it("Keras: the NaN sits in the kernel it was written to, through libhdf5", async () => {
    const info = await infoOf(at("keras/legacy-nan.h5"));
    const hit = info.tensors.filter((t) => (t.values?.nanCount ?? 0) > 0);
    expect(hit.map((t) => [t.name, t.values!.nanCount, t.shape])).toEqual([["model_weights/hidden/mlp/hidden/kernel", 1, [16, 32]]]);
  });

  it("ONNX: initializers with dtype and shape, NaN and Inf counted, external data read beside the model", async () => {
    const info = await infoOf(at("onnx/nan-initializer.onnx"));
    expect(info.tensors.map((t) => [t.name, t.dtype, t.shape])).toEqual([["fc1.weight", "F32", [16, 32]], ["fc1.bias", "F32", [32]], ["fc2.weight", "F32", [32, 4]]]);
    expect(info.tensors[0]!.values).toMatchObject({ nanCount: 1, infCount: 1 });
    expect(info.fileFacts).toMatchObject({ "onnx.ir_version": "8", "onnx.opset": "ai.onnx:17" });
    const external = await infoOf(at("onnx/external/model.onnx"));
    const inline = await infoOf(at("onnx/benign.onnx"));
    expect(external.tensors.map((t) => t.values?.mean)).toEqual(inline.tensors.map((t) => t.values?.mean));
  });

  it("ONNX: external data that points out of the model's folder is not read", async () => {
    const info = await infoOf(at("onnx/external-escape.onnx"));
    expect(info.tensors.every((t) => t.values === null)).toBe(true);
    expect(info.issues[0]!.detail).toContain("outside the model's folder");
  });

  it("GGUF: header facts, quantized tensors by type, F32/F16 values measured", async () => {
    const info = await infoOf(at("gguf/nan.gguf"));
    expect(info.fileFacts).toMatchObject({ "general.architecture": "llama", "llama.context_length": "256", "general.file_type": "MOSTLY_Q8_0", "gguf.tensor_types": "F32×2, F16×1, Q8_0×1" });
    expect(info.tensors.map((t) => [t.name, t.rawDtype, t.shape, t.values?.nanCount ?? null])).toEqual([
      ["token_embd.weight", "F32", [128, 64], 1], ["blk.0.attn_norm.weight", "F32", [64], 0], ["blk.0.attn_q.weight", "F16", [64, 64], 0], ["blk.0.ffn_up.weight", "Q8_0", [64, 128], null],
    ]);
  });

  it("SavedModel: variables read from the TensorBundle beside saved_model.pb, the NaN found where it was written", async () => {
    const info = await infoOf(at("savedmodel/nan-variable/saved_model.pb"));
    expect(info.tensors.map((t) => [t.name, t.dtype, t.shape, t.values?.nanCount])).toEqual([["variables/w/.ATTRIBUTES/VARIABLE_VALUE", "F32", [16, 4], 1]]);
  });

  it("SavedModel: ReadFile and WriteFile named with the function they sit in", async () => {
    const info = await infoOf(at("savedmodel/readfile/saved_model.pb"));
    expect(info.loadCode.map((c) => c.name)).toEqual(["ReadFile", "WriteFile"]);
    expect(info.loadCode[0]!.where).toMatch(/exfiltrate/);
  });
});

describe("format by content, whatever the name", () => {
  const dir = mkdtempSync(join(tmpdir(), "modelfiles-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([["onnx/benign.onnx", "onnx"], ["gguf/benign.gguf", "gguf"], ["keras/legacy-benign.h5", "hdf5"], ["keras/benign.keras", "keras"], ["savedmodel/benign/saved_model.pb", "savedmodel"]])(
    "%s renamed to weights.bin is still %s",
    async (file, format) => {
      const copy = join(dir, "weights.bin");
      copyFileSync(fixture(at(file)), copy);
      expect((await scanCheckpointFile(copy)).format).toBe(format);
    },
  );

  it("bytes that merely start like a protobuf varint are not ONNX", () => {
    expect(sniffFormat(new Uint8Array([0x08, 0x08, 0xff, 0xff, 0xff]), 5, "x.onnx")).toBe("unknown");
    expect(sniffFormat(new TextEncoder().encode("\bhello world, not a model"), 24, "x.onnx")).toBe("unknown");
  });

  it("a GGUF whose header is cut short is reported truncated, not dropped", async () => {
    const whole = readFileSync(fixture(at("gguf/benign.gguf")));
    const cut = join(dir, "cut.gguf");
    writeFileSync(cut, whole.subarray(0, 100));
    const scan = await scanCheckpointFile(cut);
    expect(scan.format).toBe("gguf");
    expect(scan.issues[0]).toMatchObject({ kind: "truncated" });
  });
});

describe("load-code policy", () => {
  const code = (kind: "keras_lambda" | "keras_custom_object" | "tf_op" | "onnx_custom_domain", name: string) => ({ kind, name, where: "x", detail: "" });
  it("grades what modelscan calls unsafe as critical, file-reaching ops as high, code not in the file as medium", () => {
    expect(gradeLoadCode(code("keras_lambda", "Lambda"))).toBe("critical");
    expect(gradeLoadCode(code("tf_op", "ReadFile"))).toBe("critical");
    expect(gradeLoadCode(code("tf_op", "EagerPyFunc"))).toBe("critical");
    expect(gradeLoadCode(code("tf_op", "MatchingFiles"))).toBe("high");
    expect(gradeLoadCode(code("keras_custom_object", "my_pkg.layers.Fancy"))).toBe("medium");
    expect(gradeLoadCode(code("keras_custom_object", "os.system"))).toBe("critical");
    expect(gradeLoadCode(code("onnx_custom_domain", "com.example:Op"))).toBe("medium");
  });
});

describe("Keras configs", () => {
  it("names custom objects and registered functions with their layer, and keeps Keras' own objects out", async () => {
    const { kerasLoadCode } = await import("../../../nodes/checkpoint/file/keras-config.js");
    const config = {
      module: "keras", class_name: "Sequential", config: { name: "m", layers: [
        { module: "keras.layers", class_name: "Dense", config: { name: "d", kernel_initializer: { module: "keras.initializers", class_name: "GlorotUniform", config: {} } } },
        { module: "my_pkg.layers", class_name: "Fancy", config: { name: "fancy" }, registered_name: "Fancy" },
        { module: "keras.layers", class_name: "Activation", config: { name: "act", activation: { module: "builtins", class_name: "function", config: "exec", registered_name: "function" } } },
        { module: null, class_name: "Scaler", config: { name: "scaler" }, registered_name: "MyPackage>Scaler" },
      ] },
    };
    expect(kerasLoadCode(config).map((c) => [c.kind, c.where, c.name])).toEqual([
      ["keras_custom_object", "fancy", "my_pkg.layers.Fancy"],
      ["keras_custom_object", "act", "builtins.exec"],
      ["keras_custom_object", "scaler", "MyPackage>Scaler"],
    ]);
    expect(gradeLoadCode(kerasLoadCode(config)[1]!)).toBe("critical");
  });
});
