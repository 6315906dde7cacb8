import { describe, expect, it } from "vitest";
import { byId, findingsOf, metadataInfo } from "./fixtures.js";

/**
 * The checkpoint detectors' numeric thresholds, pinned at their edges on client-computed statistics: one 64 × 32
 * weight (fan-in 32), everything else healthy. Just inside fires, just outside does not.
 */
const weight = (stats: Record<string, unknown>) => ({
  architecture: "mlp",
  num_parameters: 64 * 32,
  tensor_stats: {
    num_tensors: 1,
    nan_count: 0,
    inf_count: 0,
    tensors_with_nonfinite: 0,
    per_tensor: [{ name: "encoder.fc1.weight", dtype: "float32", shape: [64, 32], mean: 0, std: 0.25, min: -0.9, max: 0.95, max_abs: 0.95, nan_count: 0, inf_count: 0, ...stats }],
  },
});
const found = (id: string, stats: Record<string, unknown>) => byId(findingsOf(metadataInfo(weight(stats))), id).map((f) => f.severity);

describe("CK-05 exploding weights: RMS > 10 × √(2 / fan-in) (2.5 for fan-in 32)", () => {
  it("fires just above the limit and not at it, the mean counted in the RMS", () => {
    expect(found("checkpoint.exploding_weights", { std: 2.51, min: -9, max: 9, max_abs: 9 })).toEqual(["medium"]);
    expect(found("checkpoint.exploding_weights", { std: 2.5, min: -9, max: 9, max_abs: 9 })).toEqual([]);
    // RMS √(1.5² + 2²) = 2.5 exactly, and just above with a slightly larger mean.
    expect(found("checkpoint.exploding_weights", { mean: 2, std: 1.5, min: -9, max: 9, max_abs: 9 })).toEqual([]);
    expect(found("checkpoint.exploding_weights", { mean: 2.02, std: 1.5, min: -9, max: 9, max_abs: 9 })).toEqual(["medium"]);
  });
});

describe("CK-04 nearly constant weights: std < 0.1 % of the init scale √(1 / fan-in) (1.77e-4 for fan-in 32)", () => {
  const scale = Math.sqrt(1 / 32);
  it("fires just under the spread and not at it; a spread of exactly 0 is constant (high)", () => {
    expect(found("checkpoint.constant_tensor", { std: 0.99e-3 * scale, min: -0.001, max: 0.001, max_abs: 0.001 })).toEqual(["medium"]);
    expect(found("checkpoint.constant_tensor", { std: 1.01e-3 * scale, min: -0.001, max: 0.001, max_abs: 0.001 })).toEqual([]);
    expect(found("checkpoint.constant_tensor", { mean: 0.3, std: 0, min: 0.3, max: 0.3, max_abs: 0.3 })).toEqual(["high"]);
  });
});

describe("CK-06 dead units: more than half of the output units with ~zero weights", () => {
  it("fires just above half and not at half", () => {
    expect(found("checkpoint.dead_units", { units: 64, dead_units: 33 })).toEqual(["medium"]);
    expect(found("checkpoint.dead_units", { units: 64, dead_units: 32 })).toEqual([]);
  });
});
