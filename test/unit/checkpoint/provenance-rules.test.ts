import { describe, expect, it } from "vitest";
import { describesItself, detectModelFormat } from "../../../nodes/checkpoint/detectors/model-format.js";
import { detectHeaderOnly, detectMissingMetadata, detectNoOptimizerState, detectUnrecognizedFormat } from "../../../nodes/checkpoint/detectors/provenance.js";
import type { LightningState } from "../../../nodes/checkpoint/file/lightning.js";
import type { CheckpointInfo } from "../../../nodes/checkpoint/table.js";
import { checkpointInfo, only, scannedInfo, tensor } from "./checkpoint-info.js";

/** CK-10 and the header-only note on hand-built tables: what suppresses each finding and what it reports. */
const lightning = (extra: Partial<LightningState> = {}): LightningState => ({
  epoch: 4, globalStep: 100, version: "2.1.0", hyperParameters: null, hasOptimizerStates: false, optimizerCount: 0,
  hasLrSchedulers: true, hasLoops: true, modelCheckpoint: null, earlyStopping: null, ...extra,
});

describe("CK-10 missing metadata", () => {
  it("reports the metadata keys it had, or none", () => {
    expect(only(detectMissingMetadata(checkpointInfo({ metadata: { framework: "pytorch", epoch: 3 } }))).evidence[0]).toEqual({
      rule_id: "CK-10", artifact: "model_checkpoint_artifacts.metadata", text: "metadata keys: framework, epoch.", observed: "no config",
    });
    expect(only(detectMissingMetadata(checkpointInfo())).evidence[0]!.text).toBe("metadata keys: (none).");
  });

  it.each<[string, Partial<CheckpointInfo>]>([
    ["a configuration", { config: {} }],
    ["an architecture", { metadata: { architecture: "resnet18" } }],
    ["a model type", { metadata: { model_type: "bert" } }],
    ["training state, not a model", { trainingState: "optimizer" }],
    ["a Keras archive", { format: "keras" }],
    ["an ONNX graph", { format: "onnx" }],
    ["a SavedModel", { format: "savedmodel" }],
    ["a full Keras .h5", { format: "hdf5", fileFacts: { keras_version: "2.15.0" } }],
    ["a GGUF header naming its architecture", { format: "gguf", fileFacts: { "general.architecture": "llama" } }],
  ])("nothing is missing with %s", (_, overrides) => {
    expect(detectMissingMetadata(checkpointInfo(overrides))).toEqual([]);
  });

  it("a bare weights .h5 or a GGUF without architecture describes nothing", () => {
    expect(describesItself(checkpointInfo({ format: "hdf5" }))).toBe(false);
    expect(describesItself(checkpointInfo({ format: "gguf", fileFacts: { "gguf.version": "3" } }))).toBe(false);
    expect(describesItself(checkpointInfo({ format: "safetensors", fileFacts: { keras_version: "3", "general.architecture": "x" } }))).toBe(false);
    expect(detectMissingMetadata(checkpointInfo({ format: "hdf5" }))).toHaveLength(1);
  });
});

describe("CK-10 resume checkpoint without optimizer state", () => {
  const resume = (overrides: Partial<CheckpointInfo>) => detectNoOptimizerState(scannedInfo({ hasOptimizerState: false, ...overrides }));

  it("metadata saying purpose=resume or resume=true marks a resume checkpoint; other values do not", () => {
    expect(resume({ metadata: { purpose: "resume" } })).toHaveLength(1);
    expect(resume({ metadata: { resume: true } })).toHaveLength(1);
    expect(resume({ metadata: { purpose: "inference", resume: "yes" } })).toEqual([]);
  });

  it.each([
    ["/ckpt/last.ckpt", true],
    ["/ckpt/last-v1.ckpt", true],
    ["/ckpt/model_last.ckpt", true],
    ["/ckpt/run-resume.ckpt", true],
    ["/ckpt/RESUME.ckpt", true],
    ["/ckpt/epoch=3-step=100.ckpt", false],
    ["/ckpt/blast.ckpt", false],
  ])("a Lightning checkpoint at %s is meant for resuming: %s", (path, meant) => {
    expect(resume({ path, lightning: lightning() })).toHaveLength(meant ? 1 : 0);
  });

  it("the name comes from metadata checkpoint_name before the path; a file that is not Lightning's is not judged by name", () => {
    expect(resume({ path: "/ckpt/epoch=3.ckpt", metadata: { checkpoint_name: "last.ckpt" }, lightning: lightning() })).toHaveLength(1);
    expect(resume({ path: "/ckpt/last.ckpt", metadata: { checkpoint_name: "best.ckpt" }, lightning: lightning() })).toEqual([]);
    expect(resume({ path: "/ckpt/last.ckpt" })).toEqual([]);
  });

  it("says which file, the missing scheduler state, and the epoch and step", () => {
    const f = only(resume({ path: "/ckpt/last.ckpt", lightning: lightning({ hasLrSchedulers: false }) }));
    expect(f).toMatchObject({ severity: "medium", confidence: 0.7 });
    expect(f.description).toMatch(/^last\.ckpt looks meant for resuming training but holds no optimizer state or LR scheduler state:/);
    expect(f.evidence).toEqual([{ rule_id: "CK-10", artifact: "model_checkpoint_artifacts", text: "optimizer_states absent; epoch 4, global_step 100.", observed: false }]);
    const bare = only(resume({ path: null, metadata: { purpose: "resume" } }));
    expect(bare.description).toMatch(/^The checkpoint looks meant for resuming training but holds no optimizer state:/);
    expect(bare.evidence[0]!.text).toBe("optimizer_states absent; epoch ?, global_step ?.");
  });

  it("with optimizer state, or unknown, nothing; metadata alone: a file under 1.3 × its weights has none", () => {
    expect(resume({ metadata: { purpose: "resume" }, hasOptimizerState: true })).toEqual([]);
    const bySize = (sizeBytes: number) => detectNoOptimizerState(checkpointInfo({ metadata: { purpose: "resume" }, tensors: [tensor("fc.weight", [64, 32])], tensorsComplete: true, sizeBytes }));
    expect(bySize(10_600)).toHaveLength(1);
    expect(bySize(10_650)).toEqual([]);
    expect(detectNoOptimizerState(checkpointInfo({ metadata: { purpose: "resume" } }))).toEqual([]);
    expect(detectNoOptimizerState(checkpointInfo({ metadata: { purpose: "resume" }, tensors: [tensor("fc.weight", [64, 32])], tensorsComplete: true }))).toEqual([]);
  });
});

describe("header-only scan and unrecognized format", () => {
  it("header-only reports the size against the budget", () => {
    const f = only(detectHeaderOnly(scannedInfo({ mode: "header_only", sizeBytes: 5000, maxScanBytes: 1000 })));
    expect(f).toMatchObject({ severity: "info", confidence: 0.95 });
    expect(f.description).toContain("The file is 5000 bytes, above the 1000 bytes");
    expect(f.evidence).toEqual([{ rule_id: "CK-09", artifact: "model_checkpoint_artifacts.checkpoint_path", text: "size 5000 > limit 1000.", observed: 5000, threshold: 1000 }]);
    expect(detectHeaderOnly(scannedInfo())).toEqual([]);
  });

  it("an unknown file or a plain zip is not scanned; a truncated one, metadata alone or a known format are not reported", () => {
    const unknown = only(detectUnrecognizedFormat(scannedInfo({ format: "unknown" })));
    expect(unknown).toMatchObject({ severity: "low", confidence: 0.9 });
    expect(unknown.description).toContain("not a format the scanner reads");
    expect(unknown.evidence[0]).toMatchObject({ text: "format detected by content: unknown.", observed: "unknown" });
    const zip = only(detectUnrecognizedFormat(scannedInfo({ format: "zip" })));
    expect(zip.description).toContain("a zip without a PyTorch data.pkl");
    expect(detectUnrecognizedFormat(scannedInfo({ format: "zip", issues: [{ kind: "truncated", detail: "cut" }] }))).toEqual([]);
    expect(detectUnrecognizedFormat(scannedInfo({ format: "zip", issues: [{ kind: "trailing", detail: "tail" }] }))).toHaveLength(1);
    expect(detectUnrecognizedFormat(checkpointInfo({ format: "unknown" }))).toEqual([]);
    expect(detectUnrecognizedFormat(scannedInfo({ format: "safetensors" }))).toEqual([]);
    expect(detectUnrecognizedFormat(scannedInfo({ mode: "header_only", format: "unknown" }))).toHaveLength(1);
  });
});

describe("CK-10 model format report", () => {
  const described = (format: string, fileFacts: Record<string, string> = {}) => only(detectModelFormat(scannedInfo({ format, fileFacts }))).description;

  it("ONNX: IR version, opsets and producer, or what is missing", () => {
    expect(described("onnx", { "onnx.ir_version": "8", "onnx.opset": "ai.onnx 17", "onnx.producer": "pytorch", "onnx.producer_version": "2.1" })).toBe("ONNX IR version 8, opsets ai.onnx 17, written by pytorch 2.1.");
    expect(described("onnx", { "onnx.producer": "tf2onnx" })).toBe("ONNX IR version ?, opsets none declared, written by tf2onnx.");
    expect(described("onnx")).toBe("ONNX IR version ?, opsets none declared.");
  });

  it("GGUF: version, architecture, name, context length of that architecture, file and tensor types", () => {
    const full = described("gguf", { "gguf.version": "3", "general.architecture": "llama", "general.name": "Tiny", "llama.context_length": "2048", "general.file_type": "7", "gguf.tensor_types": "Q8_0: 10" });
    expect(full).toContain("GGUF version 3, architecture llama (Tiny), context length 2048, file type 7; tensor types Q8_0: 10");
    const bare = described("gguf", { "undefined.context_length": "1" });
    expect(bare).toContain("GGUF version ?, architecture ?, file type ?; tensor types ?");
  });

  it("SavedModel, Keras and HDF5", () => {
    expect(described("savedmodel", { tensorflow_version: "2.15.0" })).toBe("SavedModel written by TensorFlow 2.15.0.");
    expect(described("savedmodel")).toBe("SavedModel written by TensorFlow ?.");
    expect(described("keras", { keras_version: "3.1.0", backend: "jax" })).toBe("Keras 3.1.0 with the jax backend.");
    expect(described("hdf5", { keras_version: "2.15.0" })).toBe("Keras 2.15.0.");
    expect(described("hdf5")).toBe("An HDF5 file without Keras version attributes.");
  });

  it("info with the format as evidence, no recommendation; nothing for other formats", () => {
    const [f] = detectModelFormat(scannedInfo({ format: "keras", fileFacts: { keras_version: "3.1.0" } }));
    expect(f).toMatchObject({ severity: "info", confidence: 0.95, recommendation: null, title: "Model file format and versions" });
    expect(f!.evidence).toEqual([{ rule_id: "CK-10", artifact: "model_checkpoint_artifacts.checkpoint_path", text: "Keras 3.1.0.", observed: "keras" }]);
    expect(detectModelFormat(scannedInfo({ format: "safetensors" }))).toEqual([]);
    expect(detectModelFormat(checkpointInfo({ format: null }))).toEqual([]);
  });
});
