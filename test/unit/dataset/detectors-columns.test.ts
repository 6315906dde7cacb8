import { describe, expect, it } from "vitest";
import { collinearity } from "../../../nodes/dataset/detectors/collinearity.js";
import { constantFeature } from "../../../nodes/dataset/detectors/constant-feature.js";
import { idLikeColumn } from "../../../nodes/dataset/detectors/id-like-column.js";
import { labelPredictiveFeature } from "../../../nodes/dataset/detectors/label-predictive-feature.js";
import { missingValues } from "../../../nodes/dataset/detectors/missing-values.js";
import { nonfiniteFeatures } from "../../../nodes/dataset/detectors/nonfinite-features.js";
import { postOutcomeColumn } from "../../../nodes/dataset/detectors/post-outcome-column.js";
import { unnormalizedInputs } from "../../../nodes/dataset/detectors/unnormalized-inputs.js";
import { detectOn, only } from "./detect.js";

const col = (over: Record<string, unknown>) => ({ dtype: "float64", count: 1000, missing: 0, unique: 900, mean: 5, std: 2, min: 0, max: 10, ...over });

describe("DS-04 missing values", () => {
  it("is medium above 5 %, naming the worst column first", () => {
    const f = only(detectOn(missingValues, { columns: { a: col({ count: 600, missing: 400 }), b: col({ count: 980, missing: 20 }) } }));
    expect(f.severity).toBe("medium");
    expect(f.evidence[0]).toMatchObject({ observed: 0.4, threshold: 0.05, values: { column: "a" } });
  });

  it("is low between 1 % and 5 %, and critical for a missing label", () => {
    expect(only(detectOn(missingValues, { columns: { a: col({ count: 980, missing: 20 }) } })).severity).toBe("low");
    expect(only(detectOn(missingValues, { columns: { y: col({ count: 999, missing: 1 }) } }, { target: "y" })).severity).toBe("critical");
  });

  it("is only an info note below 1 % (the healthy sample's 0.86 %)", () => {
    expect(only(detectOn(missingValues, { columns: { a: col({ count: 41639, missing: 361 }) } })).severity).toBe("info");
  });

  it("stays quiet when nothing is missing (hard negative)", () => {
    expect(detectOn(missingValues, { columns: { a: col({}), b: col({ missing_fraction: 0 }) } })).toEqual([]);
  });
});

describe("DS-05 constant feature", () => {
  it("is low for a single-valued column", () => {
    const f = only(detectOn(constantFeature, { columns: { country: { dtype: "object", count: 100, unique: 1, top: "DE", top_frequency: 100 } } }));
    expect(f.severity).toBe("low");
    expect(f.description).toMatch(/"country".*"DE"/);
  });

  it("is info for a near-constant column (top value ≥ 95 %, few distinct values)", () => {
    expect(only(detectOn(constantFeature, { columns: { flag: { dtype: "object", count: 1000, unique: 3, top: "n", top_frequency: 970 } } })).severity).toBe("info");
  });

  it("stays quiet for an imbalanced but informative binary column (hard negative)", () => {
    expect(detectOn(constantFeature, { columns: { flag: { dtype: "object", count: 1000, unique: 2, top: "n", top_frequency: 900 } } })).toEqual([]);
  });
});

describe("DS-06 identifier-like column", () => {
  it("is medium for a string column with one value per row", () => {
    const f = only(detectOn(idLikeColumn, { columns: { customer_ref: { dtype: "object", count: 4000, unique: 4000 } } }));
    expect(f.severity).toBe("medium");
    expect(f.evidence[0]!.values).toMatchObject({ column: "customer_ref", all_distinct: true });
  });

  it("flags integer columns named like identifiers from an MLflow schema (no counts) with lower confidence", () => {
    const f = only(detectOn(idLikeColumn, { columns: [{ name: "order_id", dtype: "long" }, { name: "customerId", dtype: "long" }] }));
    expect(f.description).toMatch(/"order_id", "customerId"/);
    expect(f.confidence).toBeLessThan(0.6);
  });

  it("stays quiet for continuous floats with all-distinct values and for words ending in 'id' (hard negative)", () => {
    const stats = { columns: { annual_income: col({ unique: 1000 }), paid: { dtype: "int64", count: 1000, unique: 2 }, valid: { dtype: "bool", count: 1000, unique: 2 } } };
    expect(detectOn(idLikeColumn, stats)).toEqual([]);
  });
});

describe("DS-11 non-finite features", () => {
  it("is high for Infinity in a numeric column (charge / calls with zero calls)", () => {
    const f = only(detectOn(nonfiniteFeatures, { describe: { charge_per_call: { count: 4000, mean: Number.POSITIVE_INFINITY, std: Number.NaN, min: 1.2, max: Number.POSITIVE_INFINITY } } }));
    expect(f.severity).toBe("high");
    expect(f.evidence[0]!.text).toMatch(/max = Infinity/);
  });

  it("is high for client-counted NaN values", () => {
    expect(only(detectOn(nonfiniteFeatures, { columns: { x: col({ nan_count: 12 }) } })).severity).toBe("high");
  });

  it("ignores NaN means of categorical columns and of entirely missing columns in describe(include='all') (hard negative)", () => {
    const stats = { describe: { plan: { count: 100, unique: 3, top: "basic", freq: 60, mean: Number.NaN, std: Number.NaN }, empty: { count: 0, mean: Number.NaN, std: Number.NaN, min: Number.NaN, max: Number.NaN } } };
    expect(detectOn(nonfiniteFeatures, stats)).toEqual([]);
  });
});

describe("DS-12 unnormalized inputs", () => {
  it("is medium for image channels on the 0–255 scale", () => {
    const f = only(detectOn(unnormalizedInputs, { channel_stats: { train: { mean: [123.7, 116.3, 103.5], std: [58.4, 57.1, 57.4] } } }));
    expect(f.severity).toBe("medium");
  });

  it("is info when numeric feature scales differ more than 100×", () => {
    const f = only(detectOn(unnormalizedInputs, { columns: { income: col({ std: 25000 }), ratio: col({ std: 0.09 }) } }));
    expect(f.severity).toBe("info");
    expect(f.evidence[0]!.values).toMatchObject({ widest: "income", narrowest: "ratio" });
  });

  it("stays quiet for [0, 1]-scaled channels and comparable feature scales (hard negative)", () => {
    expect(detectOn(unnormalizedInputs, { channel_stats: { train: { mean: [0.55, 0.5, 0.44], std: [0.25, 0.25, 0.26] } } })).toEqual([]);
    expect(detectOn(unnormalizedInputs, { columns: { a: col({ std: 40 }), b: col({ std: 1 }) } })).toEqual([]);
  });
});

describe("DS-13 label-predictive feature", () => {
  it("is high for a feature with PPS ≥ 0.8 and for an identifier that predicts the label at all", () => {
    const f = only(detectOn(labelPredictiveFeature, { feature_label_correlation: { refund_amount: 0.93, order_id: 0.12, tenure: 0.3 } }, { target: "returned" }));
    expect(f.severity).toBe("high");
    expect(f.evidence.map((e) => e.values?.column)).toEqual(["refund_amount", "order_id"]);
  });

  it("stays quiet below the threshold and ignores the target itself (hard negative)", () => {
    expect(detectOn(labelPredictiveFeature, { feature_label_correlation: { returned: 1, tenure: 0.6 } }, { target: "returned" })).toEqual([]);
  });
});

describe("DS-13 heuristic: post-outcome column", () => {
  it("flags a nullable refund_status when the target is 'returned'", () => {
    const f = only(detectOn(postOutcomeColumn, { columns: [{ name: "refund_status", dtype: "string", required: false }] }, { target: "returned" }));
    expect(f.severity).toBe("medium");
    expect(f.evidence[0]!.values).toMatchObject({ column: "refund_status", nullable: true });
    expect(f.description).toMatch(/heuristic/);
  });

  it("stays quiet for history features and for non-nullable columns that only share the target's stem (hard negative)", () => {
    const stats = { columns: [{ name: "prior_returns", dtype: "long", required: true }, { name: "prior_refunds", dtype: "long", required: false }, { name: "return_window_days", dtype: "long", required: true }] };
    expect(detectOn(postOutcomeColumn, stats, { target: "returned" })).toEqual([]);
  });
});

describe("DS-14 collinearity", () => {
  it("is low for a pair above |r| = 0.9 from a pandas corr() matrix", () => {
    const corr = { tenure: { tenure: 1, total_charges: 0.95, monthly: 0.2 }, total_charges: { tenure: 0.95, total_charges: 1, monthly: 0.4 }, monthly: { tenure: 0.2, total_charges: 0.4, monthly: 1 } };
    const f = only(detectOn(collinearity, { correlations: corr }));
    expect(f.severity).toBe("low");
    expect(f.evidence).toHaveLength(1);
    expect(f.evidence[0]!.values).toMatchObject({ feature_a: "tenure", feature_b: "total_charges" });
  });

  it("ignores the target and pairs at or below 0.9 (hard negative)", () => {
    const pairs = [{ a: "x", b: "churned", r: 0.97 }, { a: "x", b: "y", r: -0.9 }];
    expect(detectOn(collinearity, { correlations: pairs }, { target: "churned" })).toEqual([]);
  });
});
