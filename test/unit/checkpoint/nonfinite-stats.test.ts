import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseTolerantJson } from "../../../artifacts/tolerant-json.js";
import { aboveLow, byId, findingsOf, metadataInfo } from "./fixtures.js";

/**
 * Client tensor_stats whose damaged tensor has non-finite summaries: torch reports NaN mean/std/min/max for a
 * tensor holding NaN, MLflow writes "NaN"/"Infinity" as strings. Such a row must be read, not dropped.
 */

/** The checkpoint metadata of a request body as the request decoder reads it (bare NaN/Infinity accepted). */
const metadataOf = (body: string) =>
  (parseTolerantJson(body) as { model_checkpoint_artifacts: { metadata: Record<string, unknown> } }).model_checkpoint_artifacts.metadata;

const NAN_BODY =
  '{"model_checkpoint_artifacts": {"metadata": {"framework": "pytorch", "tensor_stats": {"per_tensor": [' +
  '{"name": "fc1.weight", "dtype": "float32", "shape": [64, 32], "mean": NaN, "std": NaN, "min": NaN, "max": NaN, "nan_count": 12, "inf_count": 0}]}}}}';
const INF_BODY =
  '{"model_checkpoint_artifacts": {"metadata": {"framework": "pytorch", "tensor_stats": {"per_tensor": [' +
  '{"name": "fc1.weight", "dtype": "float32", "shape": [64, 32], "mean": Infinity, "std": NaN, "min": NaN, "max": NaN, "nan_count": 0, "inf_count": 3}]}}}}';

const nonfinite = (metadata: Record<string, unknown>) => byId(findingsOf(metadataInfo(metadata)), "checkpoint.nonfinite_weights");

const row = (over: Record<string, unknown>) => ({ name: "fc1.weight", dtype: "float32", shape: [64, 32], ...over });
const perTensor = (...rows: Record<string, unknown>[]) => ({ framework: "pytorch", tensor_stats: { per_tensor: rows } });

describe("per_tensor rows with non-finite statistics (metadata only)", () => {
  it("NaN mean/std/min/max with nan_count 12 and no totals: critical, naming fc1.weight", () => {
    const [f, ...rest] = nonfinite(metadataOf(NAN_BODY));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ severity: "critical" });
    expect(f!.description).toContain("fc1.weight");
    expect(f!.description).toContain("12 NaN and 0 infinite");
    expect(f!.evidence[0]).toMatchObject({ artifact: "model_checkpoint_artifacts.metadata.tensor_stats:fc1.weight", observed: 12, values: { nan: 12, inf: 0, mean: "NaN" } });
    expect(f!.evidence[0]!.text).toContain("fc1.weight");
  });

  it("Infinity mean with inf_count 3 and no totals: critical, naming fc1.weight", () => {
    const [f] = nonfinite(metadataOf(INF_BODY));
    expect(f).toMatchObject({ severity: "critical" });
    expect(f!.description).toContain("fc1.weight");
    expect(f!.description).toContain("0 NaN and 3 infinite");
  });

  it("the totals come from the per_tensor rows when the top-level counts are absent", () => {
    const info = metadataInfo(metadataOf(NAN_BODY));
    expect([info.nanCount, info.infCount, info.tensorsWithNonfinite]).toEqual([12, 0, 1]);
    const inf = metadataInfo(metadataOf(INF_BODY));
    expect([inf.nanCount, inf.infCount, inf.tensorsWithNonfinite]).toEqual([0, 3, 1]);
  });

  it('MLflow-style strings ("NaN", "Infinity", "-Infinity") are read as the numbers', () => {
    const [f] = nonfinite(perTensor(row({ mean: "NaN", std: "NaN", min: "-Infinity", max: "Infinity", nan_count: "5", inf_count: 2 })));
    expect(f).toMatchObject({ severity: "critical" });
    expect(f!.description).toContain("5 NaN and 2 infinite");
    expect(f!.description).toContain("fc1.weight");
    expect(f!.evidence[0]!.values).toMatchObject({ min: "-Infinity", max: "Infinity" });
  });

  it("non-finite mean/min/max without any count still name the tensor", () => {
    const [f] = nonfinite(perTensor(row({ mean: Number.NaN, std: Number.NaN, min: Number.NaN, max: Number.NaN })));
    expect(f).toMatchObject({ severity: "critical" });
    expect(f!.description).toContain("fc1.weight");
    expect(f!.description).not.toMatch(/\b0 NaN/);
    expect(f!.evidence[0]).toMatchObject({ observed: null, values: { mean: "NaN" } });
    expect(metadataInfo(perTensor(row({ max: Number.POSITIVE_INFINITY }))).tensorsWithNonfinite).toBe(1);
  });

  it("the sample checkpoint-nan-weights names its damaged tensor layer3.1.conv2.weight", () => {
    const text = readFileSync(fileURLToPath(new URL("../../fixtures/samples/checkpoint-nan-weights.json", import.meta.url)), "utf8");
    const info = metadataInfo(metadataOf(text));
    expect(info.tensors.map((t) => t.name)).toContain("layer3.1.conv2.weight");
    const [f] = byId(findingsOf(info), "checkpoint.nonfinite_weights");
    expect(f).toMatchObject({ severity: "critical" });
    expect(f!.description).toContain("2048 NaN");
    expect(f!.description).toContain("layer3.1.conv2.weight");
  });

  it("non-finite statistics stay out of min…maxAbs, so no other value detector reads them", () => {
    const info = metadataInfo(perTensor(row({ mean: Number.POSITIVE_INFINITY, std: Number.POSITIVE_INFINITY, min: 0.1, max: Number.POSITIVE_INFINITY, inf_count: 3 })));
    expect(info.tensors[0]!.values).toMatchObject({ mean: null, std: null, min: 0.1, max: null, maxAbs: null, nonfiniteStats: { mean: Infinity, std: Infinity, max: Infinity } });
    const ids = findingsOf(info).map((f) => f.id);
    expect(ids).toContain("checkpoint.nonfinite_weights");
    for (const id of ["checkpoint.exploding_weights", "checkpoint.constant_tensor", "checkpoint.all_zero_tensor"]) expect(ids).not.toContain(id);
  });

  it("one unreadable field drops neither the row nor the block", () => {
    const info = metadataInfo({ tensor_stats: { nan_count: "lots", per_tensor: [row({ mean: "n/a", std: {}, nan_count: 12, shape: "torch.Size([64, 32])" })] } });
    expect(info.tensors.map((t) => t.name)).toEqual(["fc1.weight"]);
    expect(info.nanCount).toBe(12);
    expect(byId(findingsOf(info), "checkpoint.nonfinite_weights")[0]!.description).toContain("fc1.weight");
  });
});

describe("benign metadata-only bodies stay quiet", () => {
  it("finite per_tensor rows without totals, and a one-element tensor whose torch std is NaN", () => {
    const found = findingsOf(metadataInfo(perTensor(
      row({ mean: 0.001, std: 0.18, min: -0.7, max: 0.69, nan_count: 0, inf_count: 0 }),
      { name: "fc1.bias", dtype: "float32", shape: [64], mean: 0.01, std: 0.02, min: -0.05, max: 0.06, nan_count: 0, inf_count: 0 },
      { name: "logit_scale", dtype: "float32", shape: [1], mean: 2.65, std: "NaN", min: 2.65, max: 2.65, nan_count: 0, inf_count: 0 },
    )));
    expect(byId(found, "checkpoint.nonfinite_weights")).toEqual([]);
    expect(aboveLow(found)).toEqual([]);
  });

  it("metadata without tensor_stats", () => {
    const found = findingsOf(metadataInfo({ framework: "pytorch", format: "safetensors", epoch: 3 }));
    expect(byId(found, "checkpoint.nonfinite_weights")).toEqual([]);
    expect(aboveLow(found)).toEqual([]);
  });
});
