import { describe, expect, it } from "vitest";
import { checkFailed } from "../../../nodes/checks/detectors/check-failed.js";
import { expectationFailed } from "../../../nodes/checks/detectors/expectation-failed.js";
import { integrityFailed } from "../../../nodes/checks/detectors/integrity-failed.js";
import { leakageFailed } from "../../../nodes/checks/detectors/leakage-failed.js";
import { newLabels } from "../../../nodes/checks/detectors/new-labels.js";
import { schemaAnomaly } from "../../../nodes/checks/detectors/schema-anomaly.js";
import type { CheckOutcome } from "../../../nodes/checks/model.js";
import { only } from "./build.js";
import { outcome, report } from "./outcomes.js";

const run = (detector: typeof integrityFailed, ...outcomes: CheckOutcome[]) => detector.detect(report(outcomes));

describe("CR-01 integrity failed: each check at its DS severity", () => {
  const check = (name: string, status: CheckOutcome["status"] = "fail", fields: Partial<CheckOutcome> = {}) => outcome({ category: "integrity", tool: "generic", name, status, ...fields });
  const severity = (name: string, status: CheckOutcome["status"] = "fail") => only(run(integrityFailed, check(name, status))).severity;

  it("is high for non-finite values (NaN, inf), medium under a WARN", () => {
    expect(severity("has_nan")).toBe("high");
    expect(severity("Has Inf")).toBe("high");
    expect(severity("nonfinite_values")).toBe("high");
    expect(severity("non_finite")).toBe("high");
    expect(severity("has_nan", "warn")).toBe("medium");
  });

  it("is low for hygiene checks (single value, outliers), info under a WARN", () => {
    expect(severity("single_value_column")).toBe("low");
    expect(severity("Feature Feature Correlation")).toBe("low");
    expect(severity("single_value_column", "warn")).toBe("info");
  });

  it("is medium for any other integrity check, low under a WARN", () => {
    expect(severity("schema_like_custom")).toBe("medium");
    expect(severity("schema_like_custom", "warn")).toBe("low");
  });

  it("judges a stated duplicate share by DS-07 (> 5 % medium) under a WARN too, and maps a duplicates check without a share", () => {
    expect(only(run(integrityFailed, check("duplicate_rows", "warn", { observed: 0.3 }))).severity).toBe("medium");
    expect(only(run(integrityFailed, check("duplicate_rows", "warn"))).severity).toBe("low");
    expect(only(run(integrityFailed, check("duplicate_rows", "fail"))).severity).toBe("medium");
  });

  it("takes the worst severity, and quotes the message of the first check at it", () => {
    const f = only(run(integrityFailed, check("single_value_column", "fail", { message: "low one" }), check("has_nan", "warn", { message: "medium one" }), check("custom", "fail", { message: "other medium" })));
    expect(f.severity).toBe("medium");
    expect(f.description).toBe('Check "single_value_column" failed; Check "has_nan" warned; Check "custom" failed. medium one');
  });

  it("names up to three columns per check and four checks, then how many more", () => {
    const f = only(run(integrityFailed, check("a", "fail", { columns: ["w", "x", "y", "z"] }), check("b"), check("c"), check("d")));
    expect(f.description).toBe('Check "a" ("w", "x", "y" and 1 more) failed; Check "b" failed; Check "c" failed; Check "d" failed.');
    const many = only(run(integrityFailed, ...Array.from({ length: 12 }, (_, i) => check(`c${i}`))));
    expect(many.description).toMatch(/; Check "c3" failed; and 8 more\.$/);
    expect(many.evidence).toHaveLength(10);
  });

  it("rates confidence by the strongest check's number against its threshold, 0.8 without both", () => {
    expect(only(run(integrityFailed, check("has_nan", "fail", { observed: 0.1, threshold: 0.05 }))).confidence).toBe(0.82);
    expect(only(run(integrityFailed, check("has_nan", "fail", { observed: 0.1, threshold: 0 }))).confidence).toBe(0.8);
    expect(only(run(integrityFailed, check("has_nan", "fail", { observed: 0.1 }))).confidence).toBe(0.8);
    expect(only(run(integrityFailed, check("has_nan", "fail", { threshold: 0.05 }))).confidence).toBe(0.8);
  });
});

describe("CR-02 leakage failed", () => {
  const mix = (fields: Partial<CheckOutcome> = {}) => outcome({ category: "leakage", name: "Train Test Samples Mix", observed: 0.075, threshold: 0.05, ...fields });

  it("quotes a samples mix as a share of test rows, with the counts when both are known, and the allowed share", () => {
    const f = only(run(leakageFailed, mix({ values: { matched_rows: 75, total_rows: 1000 } })));
    expect(f.description).toMatch(/^Deepchecks "Train Test Samples Mix" failed: /);
    expect(f.description).toContain("7.50 % of the test rows (75 / 1,000 rows) also appear in train (allowed: 5.00 %).");
    expect(f.confidence).toBe(0.71);
    expect(only(run(leakageFailed, mix({ values: { matched_rows: 75 } }))).description).toContain("7.50 % of the test rows also appear in train (allowed: 5.00 %)");
    expect(only(run(leakageFailed, mix({ values: { total_rows: 1000 } }))).description).toContain("7.50 % of the test rows also appear in train");
  });

  it("measures a samples mix without a condition against the catalog's 5 %, in the evidence too", () => {
    const f = only(run(leakageFailed, mix({ status: "none", threshold: null })));
    expect(f.description).toContain("7.50 % of the test rows also appear in train.");
    expect(f.description).not.toContain("allowed");
    expect(f.evidence[0]).toMatchObject({ threshold: 0.05 });
    expect(f.severity).toBe("high");
    expect(f.confidence).toBe(0.71);
    // A failure without a threshold is the report's own verdict: no catalog default in its evidence.
    expect(only(run(leakageFailed, mix({ threshold: null }))).evidence[0]).toMatchObject({ threshold: null });
  });

  it("applies no default to other leakage checks without a condition", () => {
    expect(run(leakageFailed, outcome({ category: "leakage", name: "Identifier Label Correlation", status: "none", observed: 0.9 }))).toEqual([]);
  });

  it("names the columns that predict the label, else the tool's message, else says the check failed", () => {
    const id = (fields: Partial<CheckOutcome>) => only(run(leakageFailed, outcome({ category: "leakage", name: "Identifier Label Correlation", ...fields }))).description;
    expect(id({ columns: ["id"], observed: 0.9 })).toContain(': id predicts the label (score 0.9).');
    expect(id({ columns: ["id", "ts"] })).toContain(": id, ts predict the label.");
    expect(id({ message: "Found leakage in the index." })).toContain(": Found leakage in the index..");
    expect(id({})).toContain("failed: the check failed.");
    // A samples mix without a number is described like any other check.
    expect(only(run(leakageFailed, mix({ observed: null, columns: [] }))).description).toContain("failed: the check failed.");
  });

  it("counts the further leakage checks, and is medium when they all only warned", () => {
    expect(only(run(leakageFailed, mix())).description).not.toContain("more leakage");
    const two = only(run(leakageFailed, mix({ status: "warn" }), mix({ status: "warn", name: "Date Train Test Leakage Overlap" })));
    expect(two.description).toContain(" 1 more leakage check(s) did not pass.");
    expect(two.severity).toBe("medium");
  });

  it("rates confidence at twice the threshold when there is no number or the threshold is 0", () => {
    expect(only(run(leakageFailed, mix({ observed: null }))).confidence).toBe(0.82);
    expect(only(run(leakageFailed, mix({ threshold: 0 }))).confidence).toBe(0.82);
    expect(only(run(leakageFailed, mix({ observed: 0.15, threshold: 0.05 }))).confidence).toBe(0.89);
  });
});

describe("CR-07 expectation failed", () => {
  const ge = (name: string, fields: Partial<CheckOutcome> = {}) => outcome({ category: "expectation", tool: "great_expectations", name, ...fields });
  const share = (observed: number, fields: Partial<CheckOutcome> = {}) => ge("expect_column_values_to_not_be_null", { observed, threshold: 0.05, values: { unexpected_count: 1 }, share: true, ...fields });

  it("is high past half of the values unexpected, medium at exactly half", () => {
    expect(only(run(expectationFailed, share(0.5))).severity).toBe("medium");
    expect(only(run(expectationFailed, share(0.51))).severity).toBe("high");
  });

  it("judges only column-map expectations by share: an aggregate's observed value is no share", () => {
    const f = only(run(expectationFailed, ge("expect_column_mean_to_be_between", { observed: 0.9, columns: ["age"] })));
    expect(f.severity).toBe("medium");
    expect(f.description).toContain('expect_column_mean_to_be_between on "age" (observed 0.9)');
    expect(f.confidence).toBe(0.8);
  });

  it("quotes the unexpected share and what the expectation allowed, and rates confidence by them", () => {
    const f = only(run(expectationFailed, share(0.1, { columns: ["a", "b", "c"] })));
    expect(f.description).toContain('expect_column_values_to_not_be_null on "a", "b" and 1 more (10.00 % unexpected, allowed 5.00 %)');
    expect(f.confidence).toBe(0.82);
    expect(only(run(expectationFailed, share(0.1, { threshold: null }))).description).toContain("(10.00 % unexpected, allowed 0.00 %)");
    // Against no allowance at all, 1 % stands in for the threshold.
    expect(only(run(expectationFailed, share(0.02, { threshold: 0 }))).confidence).toBe(0.82);
  });

  it("rates confidence by the expectation at the worst severity", () => {
    const f = only(run(expectationFailed, share(0.1), share(0.8)));
    expect(f.severity).toBe("high");
    expect(f.confidence).toBe(0.9);
  });

  it("names the kinds of expectation that failed, four of them, and counts the rest", () => {
    const names = ["expect_column_values_to_not_be_null", "expect_column_values_to_be_unique", "expect_column_values_to_be_between", "expect_table_row_count_to_equal", "expect_column_to_exist"];
    const f = only(run(expectationFailed, ...names.map((n) => ge(n))));
    expect(f.description).toBe(`5 of 5 expectations failed (missing values, duplicates, value ranges, row count, other): ${names.slice(0, 4).join("; ")}; and 1 more.`);
    expect(only(run(expectationFailed, ...names.slice(0, 4).map((n) => ge(n)))).description).toBe(`4 of 4 expectations failed (missing values, duplicates, value ranges, row count): ${names.slice(0, 4).join("; ")}.`);
    expect(only(run(expectationFailed, ...Array.from({ length: 11 }, (_, i) => ge(`expect_${i}`)))).evidence).toHaveLength(10);
  });

  it("counts the expectations evaluated: Great Expectations ones with a verdict only", () => {
    const f = only(run(expectationFailed, ge("expect_a"), ge("expect_b", { status: "pass" }), ge("expect_c", { status: "none" }), outcome({ category: "integrity", tool: "generic", status: "pass" })));
    expect(f.description).toMatch(/^1 of 2 expectations failed \(other\)/);
    expect(only(run(expectationFailed, outcome({ category: "expectation", tool: "generic", name: "range_check" }))).description).toBe("1 expectations failed (other): range_check.");
  });
});

describe("CR-06 schema anomaly", () => {
  it("quotes the lead check's message, and lists at most ten checks", () => {
    const f = only(run(schemaAnomaly, outcome({ category: "schema", tool: "tfdv", name: "age", status: "warn", message: "New column" }), outcome({ category: "schema", tool: "tfdv", name: "income", message: "Unexpected type" })));
    expect(f.description).toMatch(/^TFDV "income" failed: Unexpected type\. /);
    expect(f.severity).toBe("high");
    const many = only(run(schemaAnomaly, ...Array.from({ length: 11 }, (_, i) => outcome({ category: "schema", name: `c${i}` }))));
    expect(many.evidence).toHaveLength(10);
    expect(many.description).toMatch(/^Deepchecks "c0" failed\. /);
  });
});

describe("DS-03 new labels", () => {
  it("names the new labels and their share of test rows, when known", () => {
    const f = only(run(newLabels, outcome({ category: "new_labels", name: "New Labels", observed: 0.004, columns: ["x"], details: [{ name: "y", score: 3, threshold: null, flagged: true }] })));
    expect(f.description).toMatch(/^Deepchecks "New Labels" failed: "x", "y" \(0\.40 % of test rows\)\. /);
    expect(f.evidence.map((e) => e.values?.check)).toEqual(["New Labels"]);
    const bare = only(run(newLabels, outcome({ category: "new_labels", name: "New Labels", status: "warn" })));
    expect(bare.description).toMatch(/^Deepchecks "New Labels" warned\. /);
    expect(bare.severity).toBe("medium");
  });
});

describe("CR-01 other checks failed", () => {
  it("counts split and uncategorized checks, leads with the failure, its condition and message", () => {
    const f = only(run(checkFailed,
      outcome({ category: "other", tool: "generic", name: "latency", status: "warn", message: "slow" }),
      outcome({ category: "split", name: "Datasets Size Comparison", condition: "Test-Train size ratio is greater than 0.01", message: "ratio is 0.006" }),
      outcome({ category: "schema", name: "not mine" }),
    ));
    expect(f.description).toMatch(/^2 further check\(s\)/);
    expect(f.description).toContain('Deepchecks "Datasets Size Comparison" failed on "Test-Train size ratio is greater than 0.01": ratio is 0.006.');
    expect(f.severity).toBe("medium");
    expect(f.evidence.map((e) => e.values?.check)).toEqual(["latency", "Datasets Size Comparison"]);
    expect(f.confidence).toBe(0.62);
    expect(only(run(checkFailed, outcome({ category: "other", name: "bare", status: "warn" }))).description).toMatch(/^1 further check\(s\).*; Deepchecks "bare" warned\.$/);
    expect(only(run(checkFailed, ...Array.from({ length: 11 }, (_, i) => outcome({ category: "other", name: `c${i}` })))).evidence).toHaveLength(10);
  });
});
