import { describe, expect, it } from "vitest";
import { FindingSchema, type Finding, type Severity } from "../../../domain/result.js";
import { checkpointDetectors } from "../../../nodes/checkpoint/catalog.js";
import { detectCheckpointFindings } from "../../../nodes/checkpoint/detect.js";
import type { CheckpointInfo } from "../../../nodes/checkpoint/table.js";
import { checkpointInfo, pickleReport, scannedInfo, tensor } from "./checkpoint-info.js";

/**
 * The findings contract of the checkpoint tier: on an input made for each severity of each catalog detector, every
 * finding any detector returns is well formed (its catalog id and one of its catalog severities, its rule on every
 * piece of evidence, text in every field a reader sees), and every (detector, severity) of the catalog fires at
 * least once, so a detector or severity added later without a case fails here.
 */
const moments = [
  tensor("state.0.exp_avg", [64, 32], {}, { group: "optimizer" }),
  tensor("state.0.exp_avg_sq", [64, 32], { min: 0, mean: 0.01 }, { group: "optimizer" }),
];
const lambda = { kind: "keras_lambda" as const, where: "layers/lambda", name: "Lambda", detail: "marshalled Python bytecode (412 bytes)" };

const CASES: Array<[string, Severity, CheckpointInfo]> = [
  ["checkpoint.unsafe_pickle", "critical", scannedInfo({ pickles: [pickleReport("archive/data.pkl", [["collections", "OrderedDict"], ["os", "system"]])] })],
  ["checkpoint.unsafe_pickle", "medium", scannedInfo({ pickles: [pickleReport("archive/data.pkl", [["my_project.models", "Net"]])] })],
  ["checkpoint.unsafe_pickle", "medium", scannedInfo({ pickles: [pickleReport("archive/data.pkl", [], { extCodes: [1, 2] }), pickleReport("extra.pkl", [], { error: "unknown opcode 0xff" })] })],
  ["checkpoint.library_pickle", "low", scannedInfo({ format: "pickle", pickles: [pickleReport("model.joblib", [["sklearn.ensemble._forest", "RandomForestClassifier"]], { versions: [{ library: "scikit-learn", version: "1.5.0" }] })] })],
  ["checkpoint.unverified_content", "medium", scannedInfo({ format: "archive", unverified: [{ entry: "model.7z", reason: "it is a 7z archive" }] })],
  ["checkpoint.code_on_load", "critical", scannedInfo({ format: "keras", loadCode: [lambda] })],
  ["checkpoint.code_on_load", "high", scannedInfo({ format: "savedmodel", loadCode: [{ kind: "tf_op", where: "saved_model.pb:node/glob", name: "MatchingFiles", detail: "lists files" }] })],
  ["checkpoint.code_on_load", "medium", scannedInfo({ format: "onnx", loadCode: [{ kind: "onnx_custom_domain", where: "graph:node_3", name: "com.acme:FastGelu", detail: "domain com.acme" }] })],
  ["checkpoint.requires_unsafe_load", "low", scannedInfo({ pickles: [pickleReport("archive/data.pkl", [["torch._utils", "_rebuild_tensor_v2"], ["pytorch_lightning.utilities.parsing", "AttributeDict"]])] })],
  ["checkpoint.nonfinite_weights", "critical", scannedInfo({ tensors: [tensor("fc.weight", [16, 8], { nanCount: 3 })], nanCount: 3, tensorsWithNonfinite: 1 })],
  ["checkpoint.nonfinite_weights", "critical", scannedInfo({ tensors: [tensor("fc.weight", [16, 8]), tensor("state.0.exp_avg_sq", [16, 8], { infCount: 2 }, { group: "optimizer" })], infCount: 2, tensorsWithNonfinite: 1 })],
  ["checkpoint.all_zero_tensor", "high", scannedInfo({ tensors: [tensor("fc.weight", [16, 8], { min: 0, max: 0, mean: 0, std: 0, maxAbs: 0, zeroFraction: 1 })] })],
  ["checkpoint.constant_tensor", "high", scannedInfo({ tensors: [tensor("fc.weight", [16, 8], { min: 0.05, max: 0.05, mean: 0.05, std: 0, maxAbs: 0.05 })] })],
  ["checkpoint.constant_tensor", "medium", scannedInfo({ tensors: [tensor("fc.weight", [16, 8], { min: -2e-5, max: 2e-5, std: 1e-5, maxAbs: 2e-5 })] })],
  ["checkpoint.exploding_weights", "medium", scannedInfo({ tensors: [tensor("fc.weight", [16, 8], { min: -30, max: 30, std: 8, maxAbs: 30 })] })],
  ["checkpoint.dead_units", "medium", scannedInfo({ tensors: [tensor("fc.weight", [16, 8], { units: 16, deadUnits: 12 })] })],
  ["checkpoint.batchnorm_stats", "high", scannedInfo({ tensors: [tensor("bn.running_var", [16], { min: -0.1 }), tensor("bn.num_batches_tracked", [], { min: 0, max: 0, mean: 0 }, { dtype: "I64" })] })],
  ["checkpoint.dtype_mix", "info", scannedInfo({ tensors: [tensor("fc1.weight", [16, 8]), tensor("fc2.weight", [4, 16], {}, { dtype: "F16" })] })],
  ["checkpoint.dtype_mix", "medium", scannedInfo({ tensors: [tensor("fc.weight", [16, 8], { min: -60000, max: 60000, maxAbs: 60000, std: 3 }, { dtype: "F16" })] })],
  ["checkpoint.size_vs_params", "critical", checkpointInfo({ metadata: { dtype: "float32" }, declaredParameters: 1_000_000, sizeBytes: 2_000_000 })],
  ["checkpoint.size_vs_params", "info", scannedInfo({ tensors: [tensor("fc.weight", [64, 32]), ...moments], sizeBytes: 3 * 8192 + 1000 })],
  ["checkpoint.corrupt_file", "critical", scannedInfo({ format: "safetensors", issues: [{ kind: "truncated", detail: "file ends at 1000 of 8192 bytes", expectedBytes: 8192, actualBytes: 1000 }] })],
  ["checkpoint.corrupt_file", "high", scannedInfo({ format: "safetensors", issues: [{ kind: "hole", detail: "bytes 100–200 belong to no tensor" }] })],
  ["checkpoint.corrupt_file", "low", scannedInfo({ format: "safetensors", issues: [{ kind: "trailing", detail: "64 bytes after the last tensor", actualBytes: 64 }] })],
  ["checkpoint.missing_metadata", "low", checkpointInfo({ metadata: { framework: "pytorch" } })],
  ["checkpoint.shape_mismatch", "high", scannedInfo({ config: { num_classes: 10 }, tensors: [tensor("encoder.weight", [64, 32]), tensor("classifier.weight", [12, 64])] })],
  ["checkpoint.param_count_mismatch", "medium", scannedInfo({ tensors: [tensor("fc.weight", [64, 32])], declaredParameters: 4096 })],
  ["checkpoint.no_optimizer_state", "medium", scannedInfo({ metadata: { purpose: "resume" }, hasOptimizerState: false })],
  ["checkpoint.header_only", "info", scannedInfo({ mode: "header_only", sizeBytes: 5_000_000, maxScanBytes: 1_000_000 })],
  ["checkpoint.unrecognized_format", "low", scannedInfo({ format: "unknown" })],
  ["checkpoint.model_format", "info", scannedInfo({ format: "onnx", fileFacts: { "onnx.ir_version": "8", "onnx.opset": "ai.onnx 17" } })],
];

const catalog = new Map(checkpointDetectors.map((d) => [d.id, d]));
const NON_EMPTY = /\S/;

/** Everything a finding of this tier owes its reader, checked on one finding. */
function expectWellFormed(f: Finding): void {
  const info = catalog.get(f.id);
  expect(info, `${f.id} is in the catalog`).toBeDefined();
  expect(FindingSchema.parse(f)).toEqual(f);
  expect(info!.severities, `${f.id} severity`).toContain(f.severity);
  expect(f.source).toBe("detector");
  expect(f.title).toMatch(NON_EMPTY);
  expect(f.description).toMatch(NON_EMPTY);
  expect(f.confidence).toBeGreaterThan(0);
  expect(f.confidence).toBeLessThanOrEqual(0.95);
  expect(f.evidence.length, `${f.id} evidence`).toBeGreaterThan(0);
  for (const e of f.evidence) {
    expect(e.rule_id, `${f.id} evidence rule`).toBe(info!.rule);
    expect(e.artifact).toMatch(/^model_checkpoint_artifacts(\.|:|$)/);
    expect(e.text).toMatch(NON_EMPTY);
  }
  // Only the format report is a plain fact with nothing to do about it.
  if (f.id === "checkpoint.model_format") {
    expect(f.recommendation).toBeNull();
  } else {
    expect(f.recommendation, `${f.id} recommendation`).not.toBeNull();
    expect(f.recommendation!.action).toMatch(NON_EMPTY);
    expect(f.recommendation!.rationale).toMatch(NON_EMPTY);
  }
}

describe("checkpoint findings contract", () => {
  it.each(CASES)("%s (%s) fires and every finding on its input is well formed", (id, severity, input) => {
    const found = detectCheckpointFindings(input);
    expect(found.filter((f) => f.id === id).map((f) => f.severity)).toContain(severity);
    for (const f of found) expectWellFormed(f);
  });

  it("every detector of the catalog fires at every one of its severities on the cases above, and nothing else does", () => {
    const fired = new Set(CASES.flatMap(([, , input]) => detectCheckpointFindings(input).map((f) => `${f.id} ${f.severity}`)));
    const expected = checkpointDetectors.flatMap((d) => d.severities.map((s) => `${d.id} ${s}`));
    expect([...fired].sort()).toEqual([...new Set(expected)].sort());
  });

  it("an empty table produces no finding but the missing configuration", () => {
    expect(detectCheckpointFindings(checkpointInfo()).map((f) => f.id)).toEqual(["checkpoint.missing_metadata"]);
  });
});
