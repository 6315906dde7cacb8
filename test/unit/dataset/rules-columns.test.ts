import { describe, expect, it } from "vitest";
import { collinearity } from "../../../nodes/dataset/detectors/collinearity.js";
import { constantFeature } from "../../../nodes/dataset/detectors/constant-feature.js";
import { idLikeColumn } from "../../../nodes/dataset/detectors/id-like-column.js";
import { labelPredictiveFeature } from "../../../nodes/dataset/detectors/label-predictive-feature.js";
import { nonfiniteFeatures } from "../../../nodes/dataset/detectors/nonfinite-features.js";
import { postOutcomeColumn } from "../../../nodes/dataset/detectors/post-outcome-column.js";
import { unnormalizedInputs } from "../../../nodes/dataset/detectors/unnormalized-inputs.js";
import { detectOn, only } from "./detect.js";

/**
 * The per-column detectors (constant, identifier, non-finite, scale, correlation, leakage by name or score): each
 * condition's edge just inside and just outside, which column they name, and the numbers in their evidence.
 */
const col = (over: Record<string, unknown> = {}) => ({ dtype: "float64", count: 1000, missing: 0, unique: 900, mean: 5, std: 2, min: 0, max: 10, ...over });
const fires = (findings: unknown[]) => findings.length === 1;

describe("DS-05 constant feature", () => {
  const one = (c: Record<string, unknown>) => detectOn(constantFeature, { columns: { c } });

  it("needs more than one row to call a column constant, and knows a constant from one value, a zero std or min = max", () => {
    expect(one({ dtype: "object", count: 1, unique: 1 })).toEqual([]);
    expect(only(one({ dtype: "object", count: 2, unique: 1 })).severity).toBe("low");
    expect(only(one({ dtype: "float64", count: 50, std: 0, mean: 3 })).severity).toBe("low");
    expect(only(one({ dtype: "float64", count: 50, min: 3, max: 3, mean: 3 })).severity).toBe("low");
    expect(only(one({ dtype: "object", unique: 1 })).severity).toBe("low");
    expect(one({ dtype: "float64", count: 50, min: 3, max: 4, std: 0.5, mean: 3.5 })).toEqual([]);
    expect(one({ dtype: "object", count: 50, std: 0, unique: 4, top: "x", top_frequency: 20 })).toEqual([]);
    expect(one({ dtype: "float64", count: 50, min: Number.POSITIVE_INFINITY, max: Number.POSITIVE_INFINITY, mean: 3 })).toEqual([]);
  });

  it("calls a column near-constant from a 95 % top value with under 10 % distinct values, each edge pinned", () => {
    expect(only(one({ dtype: "object", count: 1000, unique: 3, top: "n", top_frequency: 950 })).severity).toBe("info");
    expect(one({ dtype: "object", count: 1000, unique: 3, top: "n", top_frequency: 949 })).toEqual([]);
    expect(one({ dtype: "object", count: 20, unique: 2, top: "n", top_frequency: 19 })).toEqual([]);
    expect(only(one({ dtype: "object", count: 21, unique: 2, top: "n", top_frequency: 20 })).severity).toBe("info");
    expect(one({ dtype: "object", count: 1000, top: "n", top_frequency: 990 })).toEqual([]);
    expect(one({ dtype: "object", count: 1000, unique: 3, top: "n" })).toEqual([]);
  });

  it("describes one or several constant columns with their value, and a near-constant one with its top share", () => {
    const single = only(one({ dtype: "object", count: 100, unique: 1, top: "DE", top_frequency: 100 }));
    expect(single).toMatchObject({ title: "Constant feature", description: '"c" has a single value ("DE") and carries no information.', confidence: 0.82 });
    expect(single.evidence[0]).toMatchObject({ rule_id: "DS-05", artifact: "dataset_artifacts.statistics.columns.c", text: '"c": 1 distinct value ("DE").', observed: 1, threshold: 1, values: { column: "c" } });
    const two = only(detectOn(constantFeature, { columns: { a: { dtype: "float64", count: 10, std: 0, min: 2, max: 2, mean: 2 }, b: { dtype: "object", count: 10, unique: 1 } } }));
    expect(two.description).toBe('"a", "b" have a single value and carry no information.');
    expect(two.evidence[0]!.text).toBe('"a": std 0, min = max = 2.');
    const near = only(one({ dtype: "object", count: 1000, unique: 3, top: "n", top_frequency: 970 }));
    expect(near).toMatchObject({ title: "Near-constant feature", description: '"c" is almost constant.', confidence: 0.44 });
    expect(near.evidence[0]).toMatchObject({ observed: 0.97, threshold: 0.95 });
    expect(near.evidence[0]!.text).toMatch(/^"c": top value "n" in 97\.0\s?% of rows, 3 distinct values\.$/u);
    const nears = only(detectOn(constantFeature, { columns: { p: { dtype: "object", count: 1000, unique: 2, top: "y", top_frequency: 990 }, q: { dtype: "object", count: 1000, unique: 2, top: "y", top_frequency: 980 } } }));
    expect(nears.description).toBe('"p", "q" are almost constant.');
  });

  it("reports a constant and a near-constant column together at the constant's severity, and never the target", () => {
    const f = only(detectOn(constantFeature, { columns: { k: { dtype: "object", count: 100, unique: 1 }, n: { dtype: "object", count: 1000, unique: 3, top: "n", top_frequency: 970 } } }));
    expect(f.severity).toBe("low");
    expect(f.evidence.map((e) => e.values?.column)).toEqual(["k", "n"]);
    expect(f.recommendation!.action).toMatch(/^Drop "k", "n" or check why/);
    expect(detectOn(constantFeature, { columns: { y: { dtype: "object", count: 100, unique: 1 } } }, { target: "y" })).toEqual([]);
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, { dtype: "object", count: 100, unique: 1 }]));
    expect(only(detectOn(constantFeature, { columns: many })).evidence).toHaveLength(10);
  });
});

describe("DS-06 identifier-like column", () => {
  const one = (name: string, c: Record<string, unknown>) => detectOn(idLikeColumn, { columns: { [name]: c } });

  it("calls a discrete column with one value per row an identifier from 50 rows on", () => {
    expect(fires(one("ref", { dtype: "int64", count: 50, unique: 50 }))).toBe(true);
    expect(one("ref", { dtype: "int64", count: 49, unique: 49 })).toEqual([]);
    expect(one("ref", { dtype: "int64", count: 50, unique: 49 })).toEqual([]);
    expect(one("ref", { dtype: "float64", count: 50, unique: 50, mean: 3 })).toEqual([]);
    expect(one("ref", { dtype: "bool", count: 50, unique: 50 })).toEqual([]);
    expect(fires(one("ref", { count: 50, unique: 50 }))).toBe(true);
  });

  it("calls a column named like an identifier one when at least half its values are distinct or more than 1,000 are", () => {
    expect(fires(one("order_id", { dtype: "int64", count: 1000, unique: 500 }))).toBe(true);
    expect(one("order_id", { dtype: "int64", count: 1000, unique: 499 })).toEqual([]);
    expect(fires(one("order_id", { dtype: "int64", count: 1_000_000, unique: 1001 }))).toBe(true);
    expect(one("order_id", { dtype: "int64", count: 1_000_000, unique: 1000 })).toEqual([]);
    expect(fires(one("order_id", { dtype: "int64", count: 1000 }))).toBe(true);
    expect(fires(one("order_id", { dtype: "int64", unique: 3 }))).toBe(true);
  });

  it("reads identifier names: suffixes, a leading id_, camelCase, not words that end in 'id'", () => {
    for (const name of ["id", "uuid", "row_index", "idx", "user_key", "rownum", "row_number", "id_customer", "customerId", "orderID", "record.guid"]) {
      expect(fires(one(name, { dtype: "int64" })), name).toBe(true);
    }
    for (const name of ["paid", "valid", "idle_time", "identity", "keys", "paid_amount", "isIdle"]) {
      expect(one(name, { dtype: "int64" }), name).toEqual([]);
    }
  });

  it("says how it knew: one value per row (confident) or the name (less so), with the share of distinct values", () => {
    const unique = only(one("ref", { dtype: "object", count: 4000, unique: 4000 }));
    expect(unique).toMatchObject({ confidence: 0.82, description: expect.stringMatching(/^"ref" looks like a record identifier\./) });
    expect(unique.evidence[0]).toMatchObject({ rule_id: "DS-06", text: '"ref": 4,000 distinct values in 4,000 rows (one per row).', observed: 1, threshold: 1, values: { column: "ref", by_name: false, all_distinct: true } });
    const named = only(one("order_id", { dtype: "int64", count: 1000, unique: 800 }));
    expect(named.confidence).toBe(0.44);
    expect(named.evidence[0]).toMatchObject({ text: '"order_id": named like an identifier (int64), 800 distinct values.', observed: 0.8, threshold: null, values: { by_name: true, all_distinct: false } });
    const bare = only(one("order_id", {}));
    expect(bare.evidence[0]).toMatchObject({ text: '"order_id": named like an identifier.', observed: "order_id" });
    const both = only(detectOn(idLikeColumn, { columns: { order_id: { dtype: "int64", count: 60, unique: 60 }, uuid: { dtype: "object" } } }));
    expect(both.description).toMatch(/^"order_id", "uuid" look like record identifiers\./);
    expect(both.evidence[0]!.values).toMatchObject({ by_name: true, all_distinct: true });
    expect(both.recommendation!.action).toMatch(/^Exclude "order_id", "uuid" from the features/);
    expect(both.confidence).toBe(0.82);
    expect(only(one("order_id", { dtype: "int64", unique: 5 })).evidence[0]!.observed).toBe("order_id");
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`id_${i}`, { dtype: "object" }]));
    expect(only(detectOn(idLikeColumn, { columns: many })).evidence).toHaveLength(10);
  });
});

describe("DS-11 non-finite features", () => {
  const one = (c: Record<string, unknown>) => detectOn(nonfiniteFeatures, { columns: { x: c } });

  it("lists what it found per column: infinite and NaN counts, infinite summary values, a NaN mean", () => {
    expect(only(one(col({ inf_count: 3 }))).evidence[0]).toMatchObject({ rule_id: "DS-11", text: '"x": 3 infinite values.', observed: "3 infinite values", threshold: 0, values: { column: "x" } });
    expect(only(one(col({ inf_count: 3, nan_count: 2 }))).evidence[0]!.text).toBe('"x": 3 infinite values; 2 NaN values.');
    expect(only(one(col({ min: Number.NEGATIVE_INFINITY, std: Number.POSITIVE_INFINITY }))).evidence[0]!.text).toBe('"x": min = -Infinity, std = Infinity.');
    expect(only(one(col({ mean: Number.NaN }))).evidence[0]!.text).toBe('"x": mean is NaN over non-missing values.');
    expect(only(one({ count: 10, inf_count: 1 })).severity).toBe("high");
  });

  it("ignores categorical columns, NaN counts of unknown ones, a NaN summary beside an infinite one, and clean columns", () => {
    expect(one({ dtype: "object", count: 10, inf_count: 2, nan_count: 2 })).toEqual([]);
    expect(one({ count: 10, nan_count: 2 })).toEqual([]);
    expect(one(col({ inf_count: 0, nan_count: 0 }))).toEqual([]);
    expect(only(one(col({ max: Number.POSITIVE_INFINITY, mean: Number.NaN }))).evidence[0]!.text).toBe('"x": max = Infinity.');
    expect(one(col({ count: 0, mean: Number.NaN }))).toEqual([]);
    // A NaN mean without a numeric dtype says nothing about infinities (describe() of a text column).
    expect(one({ count: 10, mean: Number.NaN })).toEqual([]);
  });

  it("flags non-finite channel statistics per split, and names every source", () => {
    const f = only(detectOn(nonfiniteFeatures, { columns: { x: col({ nan_count: 1 }), y: col({ inf_count: 1 }) }, channel_stats: { train: { mean: [0.5, Number.NaN], std: [0.2, 0.2] }, test: { mean: [0.5, 0.5], std: [0.2, 0.2] } } }));
    expect(f.description).toBe('"x", "y", "train channel statistics" contain NaN or infinite values. One such value reaching the model turns the loss into NaN.');
    expect(f.evidence).toHaveLength(3);
    expect(f.evidence[2]).toMatchObject({ artifact: "dataset_artifacts.statistics.channel_stats.train", observed: "non-finite", threshold: 0, text: "train channel mean/std contain non-finite values: mean [0.5, NaN], std [0.2, 0.2]." });
    expect(only(one(col({ nan_count: 1 }))).description).toMatch(/^"x" contains NaN/);
    expect(only(one(col({ nan_count: 1 }))).confidence).toBe(0.82);
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`c${i}`, col({ nan_count: 1 })]));
    expect(only(detectOn(nonfiniteFeatures, { columns: many })).evidence).toHaveLength(10);
  });
});

describe("DS-12 unnormalized inputs", () => {
  const channels = (mean: number[], std: number[]) => ({ channel_stats: { train: { mean, std } } });

  it("calls channels raw pixels above 1.5 in a mean or a std, not at 1.5, and ignores non-finite values", () => {
    expect(detectOn(unnormalizedInputs, channels([1.5, 0.5], [0.2, 1.5]))).toEqual([]);
    expect(only(detectOn(unnormalizedInputs, channels([1.51, 0.5], [0.2, 0.2]))).severity).toBe("medium");
    expect(only(detectOn(unnormalizedInputs, channels([0.5, 0.5], [0.2, 1.51]))).severity).toBe("medium");
    expect(detectOn(unnormalizedInputs, channels([Number.POSITIVE_INFINITY, 0.5], [0.2, 0.2]))).toEqual([]);
  });

  it("reports each raw split with its largest mean, and leaves feature scales alone then", () => {
    const f = only(detectOn(unnormalizedInputs, { channel_stats: { train: { mean: [120, 110], std: [50, 40] }, test: { mean: [0.5, 0.4], std: [0.2, 0.2] } }, columns: { a: col({ std: 1000 }), b: col({ std: 1 }) } }));
    expect(f).toMatchObject({ severity: "medium", title: "Image inputs are not scaled", confidence: 0.65 });
    expect(f.evidence).toHaveLength(1);
    expect(f.evidence[0]).toMatchObject({ rule_id: "DS-12", artifact: "dataset_artifacts.statistics.channel_stats.train", observed: 120, threshold: 1.5, text: "train channel means [120, 110], stds [50, 40]: pixel scale, not [0, 1] or standardized." });
  });

  it("is info above a 100× std ratio between numeric features, not at it, naming the widest and narrowest", () => {
    expect(detectOn(unnormalizedInputs, { columns: { a: col({ std: 100 }), b: col({ std: 1 }) } })).toEqual([]);
    const f = only(detectOn(unnormalizedInputs, { columns: { a: col({ std: 30 }), w: col({ std: 250 }), n: col({ std: 1 }), z: col({ std: 0 }), s: { dtype: "object", count: 10, std: 99999 }, y: col({ std: 1e6 }) } }, { target: "y" }));
    expect(f).toMatchObject({ severity: "info", title: "Feature scales differ widely", confidence: 0.69 });
    expect(f.description).toBe('Numeric features are on very different scales: "w" has std 250 against 1 for "n" (250×). Fine for tree models; a neural network needs them standardized.');
    expect(f.evidence[0]).toMatchObject({ artifact: "dataset_artifacts.statistics.columns.w", observed: 250, threshold: 100, values: { widest: "w", narrowest: "n" }, text: 'std ratio 250× between "w" and "n" (threshold 100×).' });
    expect(only(detectOn(unnormalizedInputs, { columns: { n: col({ std: 1 }), w: col({ std: 101 }) } })).evidence[0]!.values).toEqual({ widest: "w", narrowest: "n" });
  });

  it("needs two numeric features with a known, finite, positive std", () => {
    expect(detectOn(unnormalizedInputs, { columns: { a: col({ std: 1000 }) } })).toEqual([]);
    expect(detectOn(unnormalizedInputs, { columns: { a: col({ std: 1000 }), b: col({ std: 0 }) } })).toEqual([]);
    expect(detectOn(unnormalizedInputs, { columns: { a: col({ std: 1000 }), b: col({ std: Number.POSITIVE_INFINITY }), c: col({ std: null }) } })).toEqual([]);
  });
});

describe("DS-14 collinearity", () => {
  it("fires above |r| = 0.9 either sign, leaves out pairs with the target on either side, strongest first", () => {
    expect(only(detectOn(collinearity, { correlations: [{ a: "x", b: "y", r: -0.91 }] })).severity).toBe("low");
    expect(detectOn(collinearity, { correlations: [{ a: "x", b: "y", r: 0.9 }] })).toEqual([]);
    expect(detectOn(collinearity, { correlations: [{ a: "churned", b: "x", r: 0.97 }] }, { target: "churned" })).toEqual([]);
    const f = only(detectOn(collinearity, { correlations: [{ a: "p", b: "q", r: 0.93 }, { a: "u", b: "v", r: -0.99 }, { a: "s", b: "t", r: 0.5 }] }));
    expect(f.description).toMatch(/^2 feature pair\(s\) are nearly redundant, the strongest "u" and "v" \(r = -0\.99\)/);
    expect(f.evidence.map((e) => e.values)).toEqual([{ feature_a: "u", feature_b: "v" }, { feature_a: "p", feature_b: "q" }]);
    expect(f.evidence[0]).toMatchObject({ rule_id: "DS-14", observed: -0.99, threshold: 0.9, text: '"u" ~ "v": r = -0.99 (threshold |r| > 0.9).' });
    // |r| 0.99 against 0.9, a benign cause possible: (0.55 + 0.35·tanh(0.1))·0.8.
    expect(f.confidence).toBe(0.47);
  });

  it("keeps at most 10 pairs as evidence", () => {
    const pairs = Array.from({ length: 12 }, (_, i) => ({ a: `a${i}`, b: `b${i}`, r: 0.95 }));
    expect(only(detectOn(collinearity, { correlations: pairs })).evidence).toHaveLength(10);
  });
});

describe("DS-13 heuristic: post-outcome column", () => {
  const named = (columns: Array<Record<string, unknown>>, target: string | null = "returned") => detectOn(postOutcomeColumn, { columns }, target ? { target } : {});

  it("reads post-outcome words in snake_case and camelCase names, and lets a history word overrule them", () => {
    expect(fires(named([{ name: "refundStatus", dtype: "string", required: true }]))).toBe(true);
    expect(fires(named([{ name: "chargeback_amount", dtype: "double" }]))).toBe(true);
    expect(named([{ name: "total_refund", dtype: "double", required: false }])).toEqual([]);
    expect(named([{ name: "lastRefund", dtype: "double", required: false }])).toEqual([]);
    expect(named([{ name: "refunded", dtype: "string" }], "refunded")).toEqual([]);
  });

  it("reads every post-outcome word it lists, and every history word overrules one", () => {
    const post = ["refund", "refunded", "chargeback", "cancel", "cancelled", "canceled", "cancellation", "outcome", "resolution", "resolved", "settled", "settlement", "closed", "closure", "recovery", "recovered", "collection", "collections", "writeoff", "chargeoff", "payout", "terminated", "termination", "discharge", "discharged", "postmortem"];
    const history = ["prior", "previous", "prev", "past", "historical", "history", "lifetime", "total", "num", "count", "avg", "mean", "last", "before"];
    for (const word of post) {
      const f = only(named([{ name: `x_${word}`, dtype: "double", required: true }], "label"));
      expect(f.evidence[0]!.text, word).toBe(`"x_${word}": "${word}" names something known only after the outcome.`);
    }
    for (const word of history) expect(named([{ name: `${word}_refund`, dtype: "double", required: true }], "label"), word).toEqual([]);
  });

  it("counts a shared stem with the target only for a nullable column (required false or any missing values)", () => {
    const f = only(named([{ name: "returns_reason", dtype: "string", required: false }]));
    expect(f.evidence[0]).toMatchObject({ rule_id: "DS-13", text: '"returns_reason": shares "returns" with the target; nullable.', observed: "returns_reason", values: { column: "returns_reason", nullable: true, target: "returned" } });
    expect(fires(detectOn(postOutcomeColumn, { columns: { returning_note: col({ dtype: "object", count: 900, missing: 100 }) } }, { target: "returned" }))).toBe(true);
    expect(named([{ name: "returns_reason", dtype: "string", required: true }])).toEqual([]);
    expect(named([{ name: "returns_reason", dtype: "string" }])).toEqual([]);
    // Words of three letters or fewer are too common to share: "runs" stems to "run", which a column word "run" may not match.
    expect(named([{ name: "run_flag", dtype: "string", required: false }], "runs")).toEqual([]);
    expect(fires(named([{ name: "runs_flag", dtype: "string", required: false }], "runs"))).toBe(true);
    expect(named([{ name: "due_amount", dtype: "double", required: false }], "is_due")).toEqual([]);
    expect(named([{ name: "dues_paid", dtype: "double", required: false }], "due")).toEqual([]);
    const many = Array.from({ length: 12 }, (_, i) => ({ name: `refund_${i}`, dtype: "double" }));
    expect(only(named(many)).evidence).toHaveLength(10);
  });

  it("says why each column is suspect, more confidently when nullable, and names the target when it knows it", () => {
    const solid = only(named([{ name: "refund_status", dtype: "string", required: true }]));
    expect(solid.confidence).toBe(0.45);
    expect(solid.evidence[0]!.text).toBe('"refund_status": "refund" names something known only after the outcome.');
    expect(solid.description).toMatch(/^"refund_status" looks like a field filled in after the outcome \("returned"\) is known\. If so/);
    const nullable = only(named([{ name: "refund_status", dtype: "string", required: false }, { name: "cancel_date", dtype: "string", required: true }], null));
    expect(nullable.confidence).toBe(0.55);
    expect(nullable.description).toMatch(/^"refund_status", "cancel_date" look like fields filled in after the outcome is known, and nullable as such fields typically are\./);
    expect(nullable.evidence[0]!.values).toEqual({ column: "refund_status", nullable: true, target: null });
    expect(nullable.recommendation!.action).toMatch(/^Check when "refund_status", "cancel_date" are recorded relative to the outcome; drop them if set afterwards/);
    expect(solid.recommendation!.action).toMatch(/^Check when "refund_status" is recorded relative to the outcome; drop it if set afterwards/);
  });
});

describe("DS-13 label-predictive feature", () => {
  const scored = (scores: Record<string, number>, metadata: Record<string, unknown> = {}) => detectOn(labelPredictiveFeature, { feature_label_correlation: scores }, metadata);

  it("holds identifiers and dates, by name or by type, to 0.05 (strictly above), other features to 0.8", () => {
    expect(scored({ order_id: 0.05 })).toEqual([]);
    expect(only(scored({ order_id: 0.051 })).evidence[0]).toMatchObject({ threshold: 0.05 });
    for (const name of ["signup_date", "event_time", "created_timestamp", "id_x", "row_index", "api_key", "uuid"]) expect(fires(scored({ [name]: 0.1 })), name).toBe(true);
    expect(scored({ tenure: 0.79 })).toEqual([]);
    expect(only(scored({ tenure: 0.8 })).evidence[0]).toMatchObject({ threshold: 0.8 });
    // Above 3 SD of a useless feature's score, strictly: 0.06 is exactly 3 × 0.02.
    const noisy = (train: number) => ({ columns: { ref_id: { dtype: "int64", count: 100, unique: 60 } }, label_signal: { ref_id: { method: "auc", train, null_sd: 0.02 } } });
    expect(detectOn(labelPredictiveFeature, noisy(0.06))).toEqual([]);
    expect(fires(detectOn(labelPredictiveFeature, noisy(0.061)))).toBe(true);
    const typed = { columns: { joined: { dtype: "datetime64[ns]", count: 100 } }, label_signal: { joined: { method: "auc", train: 0.2, null_sd: 0.01 } } };
    expect(only(detectOn(labelPredictiveFeature, typed)).evidence[0]).toMatchObject({ threshold: 0.05 });
  });

  it("ranks the hits by score and reports each with its threshold", () => {
    const f = only(scored({ order_id: 0.12, refund_amount: 0.93, tenure: 0.3 }));
    expect(f.description).toMatch(/^"refund_amount", "order_id" predict the label almost by themselves \(best score 0\.93\)/);
    expect(f.evidence[0]).toMatchObject({ rule_id: "DS-13", observed: 0.93, threshold: 0.8, text: '"refund_amount": predictive power 0.930 (threshold 0.8).', values: { column: "refund_amount" } });
    expect(f.evidence[1]!.text).toBe('"order_id": predictive power 0.120 (threshold 0.05, an identifier or date).');
    // 0.93 against 0.8, a benign cause possible: (0.55 + 0.35·tanh(0.1625))·0.8.
    expect(f.confidence).toBe(0.49);
    expect(f.recommendation!.action).toMatch(/^Check how "refund_amount", "order_id" are produced and when they are known; drop them/);
    const single = only(scored({ refund_amount: 0.9 }));
    expect(single.description).toMatch(/^"refund_amount" predicts the label almost by itself/);
    expect(single.recommendation!.action).toMatch(/^Check how "refund_amount" is produced and when it is known; drop it/);
  });
});
