import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseTolerantJson } from "../../../artifacts/tolerant-json.js";
import { aboveLow, byId, findingsOf, ids, metadataInfo } from "./fixtures.js";

/** A sample request's checkpoint metadata (the samples carry Python's bare NaN, hence the tolerant parser). */
const sample = (name: string) =>
  (parseTolerantJson(readFileSync(fileURLToPath(new URL(`../../fixtures/samples/${name}`, import.meta.url)), "utf8")) as { model_checkpoint_artifacts: { metadata: Record<string, unknown> } })
    .model_checkpoint_artifacts.metadata;

/** A client's per-tensor statistics for a small healthy classifier (what the Python client computes). */
const healthy = () => [
  { name: "encoder.fc1.weight", dtype: "float32", shape: [64, 32], mean: 0.001, std: 0.25, min: -0.9, max: 0.95, max_abs: 0.95, nan_count: 0, inf_count: 0 },
  { name: "encoder.fc1.bias", dtype: "float32", shape: [64], mean: 0, std: 0, min: 0, max: 0, max_abs: 0, nan_count: 0, inf_count: 0 },
  { name: "encoder.norm.weight", dtype: "float32", shape: [64], mean: 1, std: 0, min: 1, max: 1, max_abs: 1, nan_count: 0, inf_count: 0 },
  { name: "classifier.weight", dtype: "float32", shape: [12, 64], mean: -0.002, std: 0.17, min: -0.6, max: 0.58, max_abs: 0.6, nan_count: 0, inf_count: 0 },
  { name: "classifier.bias", dtype: "float32", shape: [12], mean: 0.01, std: 0.02, min: -0.03, max: 0.04, max_abs: 0.04, nan_count: 0, inf_count: 0 },
];
const params = 64 * 32 + 64 + 64 + 12 * 64 + 12;
const withStats = (perTensor: ReturnType<typeof healthy>, extra: Record<string, unknown> = {}) => ({
  architecture: "mlp",
  num_parameters: params,
  config: { num_classes: 12 },
  tensor_stats: { num_tensors: perTensor.length, nan_count: 0, inf_count: 0, tensors_with_nonfinite: 0, per_tensor: perTensor },
  ...extra,
});
const edit = (name: string, change: Record<string, unknown>) => healthy().map((t) => (t.name === name ? { ...t, ...change } : t));

describe("the same detectors on client-computed statistics (no file)", () => {
  it("a healthy model's statistics produce no finding above low", () => {
    expect(aboveLow(findingsOf(metadataInfo(withStats(healthy()))))).toEqual([]);
  });

  it.each([
    ["checkpoint.nonfinite_weights", "critical", withStats(edit("classifier.weight", { nan_count: 3 }), { tensor_stats: { num_tensors: 5, nan_count: 3, inf_count: 0, tensors_with_nonfinite: 1, per_tensor: edit("classifier.weight", { nan_count: 3 }) } })],
    ["checkpoint.all_zero_tensor", "high", withStats(edit("encoder.fc1.weight", { mean: 0, std: 0, min: 0, max: 0, max_abs: 0 }))],
    ["checkpoint.constant_tensor", "high", withStats(edit("encoder.fc1.weight", { mean: 0.05, std: 0, min: 0.05, max: 0.05, max_abs: 0.05 }))],
    ["checkpoint.exploding_weights", "medium", withStats(edit("encoder.fc1.weight", { std: 12, min: -60, max: 60, max_abs: 60 }))],
    ["checkpoint.shape_mismatch", "high", withStats(healthy(), { config: { num_classes: 10 } })],
    ["checkpoint.param_count_mismatch", "medium", withStats(healthy(), { num_parameters: params * 3 })],
    ["checkpoint.dtype_mix", "medium", withStats(edit("encoder.fc1.weight", { dtype: "float16", max: 65000, max_abs: 65000, std: 0.3 }))],
  ])("%s (%s) fires on client statistics", (id, severity, metadata) => {
    expect(byId(findingsOf(metadataInfo(metadata)), id).map((f) => f.severity)).toContain(severity);
  });

  it("BatchNorm buffers in client statistics are checked too", () => {
    const perTensor = [...healthy(),
      { name: "bn.running_var", dtype: "float32", shape: [64], mean: 0.8, std: 0.3, min: -0.1, max: 1.5, max_abs: 1.5, nan_count: 0, inf_count: 0 },
      { name: "bn.num_batches_tracked", dtype: "int64", shape: [], mean: 0, std: 0, min: 0, max: 0, max_abs: 0, nan_count: 0, inf_count: 0 }];
    const [f] = byId(findingsOf(metadataInfo(withStats(perTensor))), "checkpoint.batchnorm_stats");
    expect(f).toMatchObject({ severity: "high" });
    expect(f!.description).toContain("bn.running_var");
    expect(f!.description).toContain("bn.num_batches_tracked");
  });

  it("aggregate non-finite counts alone are enough (no per-tensor rows)", () => {
    const [f] = byId(findingsOf(metadataInfo({ tensor_stats: { num_tensors: 200, nan_count: 12, inf_count: 1, tensors_with_nonfinite: 2 } })), "checkpoint.nonfinite_weights");
    expect(f!.description).toContain("12 NaN and 1 infinite");
  });

  it("size_bytes below what num_parameters × dtype needs is a truncated checkpoint", () => {
    const [f] = byId(findingsOf(metadataInfo({ num_parameters: 1_000_000, dtype: "float32", size_bytes: 2_000_000, config: {} })), "checkpoint.size_vs_params");
    expect(f).toMatchObject({ severity: "critical" });
  });

  it("several float dtypes in `dtypes` are reported as info", () => {
    const [f] = byId(findingsOf(metadataInfo({ config: {}, dtypes: { float16: 120, float32: 40 } })), "checkpoint.dtype_mix");
    expect(f).toMatchObject({ severity: "info" });
  });

  it("a malformed tensor_stats block is ignored, not fatal", () => {
    expect(() => findingsOf(metadataInfo({ tensor_stats: { per_tensor: [{ name: 3 }, "x"] }, config: {} }))).not.toThrow();
  });

  it("full-image-classification sample: last.ckpt ≈3× its fp32 weights → optimizer state included (info), nothing above low", () => {
    const found = findingsOf(metadataInfo(sample("full-image-classification.json")));
    expect(aboveLow(found)).toEqual([]);
    const [size] = byId(found, "checkpoint.size_vs_params");
    expect(size).toMatchObject({ severity: "info" });
    expect(size!.description).toMatch(/3×|Adam/);
    expect(ids(found)).not.toContain("checkpoint.no_optimizer_state");
  });

  it("llm-finetune sample: fp32 copy of a bf16-native model is reported as info", () => {
    const [f] = byId(findingsOf(metadataInfo(sample("llm-finetune-hf.json"))), "checkpoint.dtype_mix");
    expect(f!.evidence.map((e) => e.text)).toContain("Saved as F32 while the model's native dtype (config.torch_dtype) is BF16.");
    expect(f!.severity).toBe("info");
  });

  it("a Lightning last.ckpt whose metadata says it has no optimizer state cannot resume exactly", () => {
    const [f] = byId(findingsOf(metadataInfo({ checkpoint_name: "last.ckpt", epoch: 4, global_step: 100, has_optimizer_state: false, config: {} })), "checkpoint.no_optimizer_state");
    expect(f).toMatchObject({ severity: "medium" });
  });

  it("missing configuration is low", () => {
    expect(byId(findingsOf(metadataInfo({ framework: "pytorch" })), "checkpoint.missing_metadata")).toEqual([expect.objectContaining({ severity: "low" })]);
  });
});
