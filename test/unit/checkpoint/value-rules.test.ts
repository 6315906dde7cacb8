import { describe, expect, it } from "vitest";
import {
  detectAllZeroTensors,
  detectConstantTensors,
  detectDeadUnits,
  detectExplodingWeights,
  detectNonfiniteWeights,
} from "../../../nodes/checkpoint/detectors/values.js";
import type { TensorRecord } from "../../../nodes/checkpoint/table.js";
import { checkpointInfo, only, scannedInfo, tensor } from "./checkpoint-info.js";

/** The value detectors (CK-02 … CK-06) on hand-built tensor rows: what fires, at which edge, and the numbers reported. */
const on = (...tensors: TensorRecord[]) => scannedInfo({ tensors });
const zeros = { min: 0, max: 0, mean: 0, std: 0, maxAbs: 0, zeroFraction: 1 };

describe("CK-02 non-finite weights", () => {
  it("a healthy table has none; a counted NaN in one weight is critical and names it, its counts in the evidence", () => {
    expect(detectNonfiniteWeights(on(tensor("fc.weight", [16, 8])))).toEqual([]);
    const f = only(detectNonfiniteWeights(scannedInfo({ tensors: [tensor("fc.weight", [16, 8], { nanCount: 3, infCount: 2 })], nanCount: 3, infCount: 2, tensorsWithNonfinite: 1 })));
    expect(f).toMatchObject({ severity: "critical", confidence: 0.95, title: "Checkpoint holds non-finite weights" });
    expect(f.recommendation!.category).toBe("model");
    expect(f.description).toContain("3 NaN and 2 infinite values in 1 tensor (fc.weight)");
    expect(f.description).not.toContain("not counted");
    expect(f.evidence).toEqual([{
      rule_id: "CK-02", artifact: "model_checkpoint_artifacts.checkpoint_path:fc.weight",
      text: "fc.weight (model) holds 3 NaN and 2 infinite values.", observed: 5, threshold: 0, values: { nan: 3, inf: 2 },
    }]);
  });

  it("aggregate counts alone fire, with one evidence of the totals (\"some\" tensors when their number is unknown)", () => {
    const f = only(detectNonfiniteWeights(checkpointInfo({ nanCount: 12, infCount: 1 })));
    expect(f.title).toBe("Checkpoint holds non-finite weights");
    expect(f.description).toContain("12 NaN and 1 infinite values:");
    expect(f.evidence).toEqual([{
      rule_id: "CK-02", artifact: "model_checkpoint_artifacts.metadata.tensor_stats",
      text: "nan_count 12, inf_count 1 across some tensors.", observed: 13, threshold: 0, values: { nan: 12, inf: 1 },
    }]);
    expect(only(detectNonfiniteWeights(checkpointInfo({ infCount: 1, tensorsWithNonfinite: 2 }))).evidence[0]!.text).toContain("across 2 tensors");
  });

  it("non-finite client statistics without counts fire too, and say the client did not count them", () => {
    const told = tensor("fc.weight", [16, 8], { mean: null, min: null, nonfiniteStats: { mean: Number.NaN, min: Number.NEGATIVE_INFINITY } });
    const f = only(detectNonfiniteWeights(checkpointInfo({ tensors: [told] })));
    expect(f.description).toContain("NaN or infinite values in 1 tensor (fc.weight) (not counted by the client");
    expect(f.evidence[0]).toMatchObject({ observed: null, threshold: 0, values: { nan: 0, inf: 0, mean: "NaN", min: "-Infinity" } });
    expect(f.evidence[0]!.text).toContain("the client's statistics are non-finite (mean NaN, min -Infinity); no count was reported.");
    // A non-finite std alone says nothing: torch's std of a single element is NaN.
    expect(detectNonfiniteWeights(checkpointInfo({ tensors: [tensor("fc.weight", [16, 8], { nonfiniteStats: { std: Number.NaN } })] }))).toEqual([]);
  });

  it("counted and uncounted tensors together: how many were not counted, and the client statistics beside the count", () => {
    const counted = tensor("a.weight", [4, 4], { nanCount: 2, nonfiniteStats: { max: Number.POSITIVE_INFINITY } });
    const uncounted = tensor("b.weight", [4, 4], { nonfiniteStats: { max_abs: Number.POSITIVE_INFINITY } });
    const f = only(detectNonfiniteWeights(checkpointInfo({ tensors: [counted, uncounted], nanCount: 2 })));
    expect(f.description).toContain("2 NaN and 0 infinite values in 2 tensors (a.weight, b.weight) (1 of them not counted by the client");
    expect(f.evidence[0]!.text).toBe("a.weight (model) holds 2 NaN and 0 infinite values (client statistics: max Infinity).");
  });

  it("evidence stops at 8 tensors and the description names 3, then how many more", () => {
    const bad = Array.from({ length: 10 }, (_, i) => tensor(`l${i}.weight`, [4, 4], { nanCount: 1 }));
    const f = only(detectNonfiniteWeights(scannedInfo({ tensors: bad, nanCount: 10 })));
    expect(f.evidence).toHaveLength(8);
    expect(f.description).toContain("in 10 tensors (l0.weight, l1.weight, l2.weight and 7 more)");
  });

  it("optimizer state alone gets its own title and a training recommendation; with a weight hit too, the weights' finding", () => {
    const moment = tensor("state.0.exp_avg_sq", [16, 8], { infCount: 2 }, { group: "optimizer" });
    const f = only(detectNonfiniteWeights(scannedInfo({ tensors: [tensor("fc.weight", [16, 8]), moment], infCount: 2 })));
    expect(f).toMatchObject({ title: "Optimizer state holds non-finite values", severity: "critical", confidence: 0.95 });
    expect(f.recommendation!.category).toBe("training");
    expect(f.description).toContain("0 NaN and 2 infinite values in 1 tensor (state.0.exp_avg_sq)");
    expect(f.evidence[0]!.text).toContain("(optimizer)");
    expect(f.evidence[0]).toMatchObject({ observed: 2, values: { nan: 0, inf: 2 } });
    const both = only(detectNonfiniteWeights(scannedInfo({ tensors: [tensor("fc.weight", [16, 8], { nanCount: 1 }), moment], nanCount: 1, infCount: 2 })));
    expect(both.title).toBe("Checkpoint holds non-finite weights");
  });
});

describe("CK-03 all-zero weights", () => {
  it("zero fraction 1 or min = max = 0 make a ≥2-D weight all-zero; anything else does not", () => {
    expect(only(detectAllZeroTensors(on(tensor("fc.weight", [16, 8], { ...zeros, min: null, max: null })))).severity).toBe("high");
    expect(only(detectAllZeroTensors(on(tensor("fc.weight", [16, 8], { ...zeros, zeroFraction: null })))).severity).toBe("high");
    expect(detectAllZeroTensors(on(tensor("fc.weight", [16, 8], { ...zeros, max: 0.1, zeroFraction: 0.99 })))).toEqual([]);
    expect(detectAllZeroTensors(on(tensor("fc.weight", [16, 8], { ...zeros, min: -0.1, zeroFraction: null })))).toEqual([]);
  });

  it("not for a bias, a one-element weight, a tensor that holds NaN, or a fixed buffer; a client weight without a shape counts", () => {
    expect(detectAllZeroTensors(on(tensor("fc.bias", [16], zeros)))).toEqual([]);
    expect(detectAllZeroTensors(on(tensor("fc.weight", [1, 1], zeros)))).toEqual([]);
    expect(detectAllZeroTensors(on(tensor("fc.weight", [16, 8], { ...zeros, nanCount: 1 })))).toEqual([]);
    expect(detectAllZeroTensors(on(tensor("fc.weight", [16, 8], zeros, { requiresGrad: false })))).toEqual([]);
    expect(detectAllZeroTensors(checkpointInfo({ tensors: [tensor("fc.weight", null, zeros)] }))).toHaveLength(1);
    expect(detectAllZeroTensors(on(tensor("fc.weight", [16, 8], null)))).toEqual([]);
  });

  it("counts and names the tensors, and reports a zero fraction of 1 with the shape", () => {
    const one = only(detectAllZeroTensors(on(tensor("fc.weight", [16, 8], zeros))));
    expect(one.description).toContain("1 weight tensor is 100 % zeros (fc.weight)");
    expect(one.evidence).toEqual([{ rule_id: "CK-03", artifact: "model_checkpoint_artifacts.checkpoint_path:fc.weight", text: "fc.weight [16,8]: all elements are 0.", observed: 1, threshold: 1, values: { zero_fraction: 1 } }]);
    expect(one.confidence).toBe(0.9);
    const many = only(detectAllZeroTensors(on(...Array.from({ length: 9 }, (_, i) => tensor(`l${i}.weight`, [4, 4], zeros)))));
    expect(many.description).toContain("9 weight tensors are 100 % zeros");
    expect(many.evidence).toHaveLength(8);
  });
});

describe("CK-04 constant weights", () => {
  it("min = max (no std reported) or std 0 (no min reported) is constant, high, with the value", () => {
    const byRange = only(detectConstantTensors(on(tensor("fc.weight", [16, 8], { min: 0.05, max: 0.05, mean: 0.05, std: null }))));
    expect(byRange).toMatchObject({ severity: "high", confidence: 0.9, title: "Weight tensors hold one constant value" });
    expect(byRange.evidence).toEqual([{ rule_id: "CK-04", artifact: "model_checkpoint_artifacts.checkpoint_path:fc.weight", text: "fc.weight: every element equals 0.05 (std 0).", observed: 0, threshold: 0, values: { value: 0.05 } }]);
    expect(byRange.description).toContain("1 weight tensor holds a single repeated value (fc.weight)");
    const byStd = only(detectConstantTensors(on(tensor("fc.weight", [16, 8], { min: null, max: null, mean: 0.3, std: 0 }))));
    expect(byStd.evidence[0]).toMatchObject({ text: "fc.weight: every element equals 0.3 (std 0).", values: { value: 0.3 } });
    const nine = only(detectConstantTensors(on(...Array.from({ length: 9 }, (_, i) => tensor(`l${i}.weight`, [4, 4], { min: 0.3, max: 0.3, mean: 0.3, std: 0 })))));
    expect(nine.description).toContain("9 weight tensors hold a single");
    expect(nine.evidence).toHaveLength(8);
    const nineFlat = only(detectConstantTensors(on(...Array.from({ length: 9 }, (_, i) => tensor(`l${i}.weight`, [10, 100], { min: -1e-5, max: 1e-5, std: 1e-5 })))));
    expect(nineFlat.evidence).toHaveLength(8);
  });

  it("unknown min and max with a normal spread are not constant; a one-element weight, NaN or all zeros are not either", () => {
    expect(detectConstantTensors(on(tensor("fc.weight", [16, 8], { min: null, max: null })))).toEqual([]);
    expect(detectConstantTensors(on(tensor("fc.weight", [1, 1], { min: 0.3, max: 0.3, std: 0 })))).toEqual([]);
    expect(detectConstantTensors(on(tensor("fc.weight", [16, 8], { min: 0.3, max: 0.3, std: 0, infCount: 1 })))).toEqual([]);
    expect(detectConstantTensors(on(tensor("fc.weight", [16, 8], zeros)))).toEqual([]);
    expect(detectConstantTensors(on(tensor("fc.weight", [16, 8], null)))).toEqual([]);
  });

  it("nearly constant: std below 0.1 % of √(1 / fan-in), medium, std and threshold as evidence; plural counts", () => {
    // fan-in 100: scale 0.1, threshold 1e-4.
    const f = only(detectConstantTensors(on(tensor("fc.weight", [10, 100], { min: -3e-4, max: 3e-4, std: 0.9e-4 }), tensor("fc2.weight", [10, 100], { min: -3e-4, max: 3e-4, std: 0.5e-4 }))));
    expect(f).toMatchObject({ severity: "medium", confidence: 0.6, title: "Weight tensors are nearly constant" });
    expect(f.description).toContain("2 weight tensors have a spread below 0.1 %");
    expect(f.evidence[0]).toMatchObject({ text: "fc.weight: std 0.00009 vs init scale 0.1.", observed: 0.9e-4 });
    expect(f.evidence[0]!.threshold).toBeCloseTo(1e-4, 12);
    expect(detectConstantTensors(on(tensor("fc.weight", [10, 100], { min: -3e-4, max: 3e-4, std: 1.1e-4 })))).toEqual([]);
    // Exactly at the threshold is not below it (client statistics can hit it); an unknown std is no spread at all.
    expect(detectConstantTensors(on(tensor("fc.weight", [10, 100], { min: -3e-4, max: 3e-4, std: 1e-3 * Math.sqrt(1 / 100) })))).toEqual([]);
    expect(detectConstantTensors(on(tensor("fc.weight", [10, 100], { min: -1, max: 1, std: null })))).toEqual([]);
    expect(only(detectConstantTensors(on(tensor("fc.weight", [10, 100], { min: -3e-4, max: 3e-4, std: 0.9e-4 })))).description).toContain("1 weight tensor has a spread");
  });

  it("an embedding's scale is 1 (N(0, 1) init), not its fan-in's; a weight without a shape has no scale", () => {
    // fan-in 16 would give a threshold of 2.5e-4; the embedding's is 1e-3.
    const f = only(detectConstantTensors(on(tensor("embed_tokens.weight", [100, 16], { min: -0.002, max: 0.002, std: 5e-4 }))));
    expect(f.evidence[0]!.threshold).toBeCloseTo(1e-3, 12);
    expect(detectConstantTensors(on(tensor("embed_tokens.weight", [100, 16], { min: -0.002, max: 0.002, std: 1.1e-3 })))).toEqual([]);
    expect(detectConstantTensors(checkpointInfo({ tensors: [tensor("fc.weight", null, { std: 1e-9, min: -1e-9, max: 1e-9 })] }))).toEqual([]);
  });

  it("a constant and a nearly constant weight make two findings, the constant one not also counted as flat", () => {
    const found = detectConstantTensors(on(tensor("a.weight", [16, 8], { min: 0.2, max: 0.2, mean: 0.2, std: 0 }), tensor("b.weight", [10, 100], { min: -1e-5, max: 1e-5, std: 1e-5 })));
    expect(found.map((f) => [f.severity, f.evidence.map((e) => e.artifact.split(":")[1])])).toEqual([["high", ["a.weight"]], ["medium", ["b.weight"]]]);
  });
});

describe("CK-05 exploding weights", () => {
  it("an embedding's limit is an RMS of 10, a weight without a shape √10; NaN-holding tensors are CK-02's", () => {
    const embedding = (std: number) => detectExplodingWeights(on(tensor("embed_tokens.weight", [100, 16], { std, min: -50, max: 50, maxAbs: 50 })));
    expect(embedding(10.1)).toHaveLength(1);
    expect(embedding(9.9)).toEqual([]);
    const shapeless = (std: number) => detectExplodingWeights(checkpointInfo({ tensors: [tensor("fc.weight", null, { std, min: -9, max: 9, maxAbs: 9 })] }));
    expect(shapeless(3.17)).toHaveLength(1);
    expect(shapeless(3.16)).toEqual([]);
    expect(detectExplodingWeights(on(tensor("fc.weight", [64, 32], { std: 50, nanCount: 1 })))).toEqual([]);
    expect(detectExplodingWeights(on(tensor("fc.weight", [64, 32], { std: null, mean: 50 })))).toEqual([]);
    expect(detectExplodingWeights(on(tensor("fc.bias", [64], { std: 50 })))).toEqual([]);
  });

  it("an unknown mean counts as 0 in the RMS", () => {
    expect(detectExplodingWeights(on(tensor("fc.weight", [64, 32], { mean: null, std: 2.51 })))).toHaveLength(1);
  });

  it("reports RMS and limit per tensor, the worst ratio to the He scale, and a confidence that grows with it", () => {
    // fan-in 32: He scale 0.25, limit 2.5; RMS 5 is 20× the He scale.
    const f = only(detectExplodingWeights(on(tensor("fc.weight", [64, 32], { std: 5, min: -9, max: 9, maxAbs: 9 }), tensor("fc2.weight", [64, 32], { std: 3, min: -9, max: 9, maxAbs: 9 }))));
    expect(f.description).toContain("2 weight tensors have an RMS more than 10×");
    expect(f.description).toContain("up to 20×");
    expect(f.evidence[0]).toEqual({ rule_id: "CK-05", artifact: "model_checkpoint_artifacts.checkpoint_path:fc.weight", text: "fc.weight: RMS 5 vs limit 2.5 (max |w| 9).", observed: 5, threshold: 2.5 });
    expect(f.confidence).toBe(0.82);
    const barely = only(detectExplodingWeights(on(tensor("fc.weight", [64, 32], { std: 2.51, min: -9, max: 9, maxAbs: 9 }))));
    expect(barely.confidence).toBe(0.55);
    expect(barely.description).toContain("1 weight tensor has an RMS");
    expect(only(detectExplodingWeights(on(...Array.from({ length: 9 }, (_, i) => tensor(`l${i}.weight`, [64, 32], { std: 5 }))))).evidence).toHaveLength(8);
  });
});

describe("CK-06 dead units", () => {
  const dead = (deadUnits: number | null, units: number | null, extra: Partial<TensorRecord> = {}, name = "fc.weight") =>
    detectDeadUnits(on(tensor(name, [64, 32], { units, deadUnits }, extra)));

  it("the ratio of dead to all output units against 0.5, as evidence; confidence stays below 0.5", () => {
    const f = only(dead(40, 64));
    expect(f.evidence).toEqual([{ rule_id: "CK-06", artifact: "model_checkpoint_artifacts.checkpoint_path:fc.weight", text: "fc.weight: 40 of 64 output units have max |w| below 1e-6 of the layer's largest.", observed: 0.625, threshold: 0.5 }]);
    expect(f.confidence).toBe(0.45);
    expect(f.description).toContain("In fc.weight, more than half");
  });

  it("not without unit counts, in an embedding, an all-zero weight, or one holding NaN", () => {
    expect(dead(null, 64)).toEqual([]);
    expect(dead(40, null)).toEqual([]);
    expect(dead(0, 0)).toEqual([]);
    expect(dead(40, 64, {}, "embed_tokens.weight")).toEqual([]);
    expect(detectDeadUnits(on(tensor("fc.weight", [64, 32], { ...zeros, units: 64, deadUnits: 64 })))).toEqual([]);
    expect(detectDeadUnits(on(tensor("fc.weight", [64, 32], { nanCount: 1, units: 64, deadUnits: 63 })))).toEqual([]);
    expect(dead(40, 64, { group: "optimizer" })).toEqual([]);
    expect(detectDeadUnits(on(tensor("fc.weight", [64, 32], null)))).toEqual([]);
    expect(only(detectDeadUnits(on(...Array.from({ length: 9 }, (_, i) => tensor(`l${i}.weight`, [64, 32], { units: 64, deadUnits: 40 }))))).evidence).toHaveLength(8);
  });
});
