import { describe, expect, it } from "vitest";
import { checkFailed } from "../../../nodes/checks/detectors/check-failed.js";
import { expectationFailed } from "../../../nodes/checks/detectors/expectation-failed.js";
import { integrityFailed } from "../../../nodes/checks/detectors/integrity-failed.js";
import { leakageFailed } from "../../../nodes/checks/detectors/leakage-failed.js";
import { newLabels } from "../../../nodes/checks/detectors/new-labels.js";
import { schemaAnomaly } from "../../../nodes/checks/detectors/schema-anomaly.js";
import { shortcutRisk } from "../../../nodes/checks/detectors/shortcut-risk.js";
import { loadJson } from "../dataset/analyze.js";
import { dcCheck, dcSuite, detectOn, only } from "./build.js";

describe("CR-01 integrity failed", () => {
  it("maps each failing check to its DS severity: conflicting labels > 3 % high, duplicates WARN lowered", () => {
    const f = only(detectOn(integrityFailed, { reports: [loadJson("checks/deepchecks-data-integrity-suite.json")] }));
    expect(f.severity).toBe("high");
    expect(f.description).toMatch(/"Is Single Value" \("country"\) failed/);
    expect(f.evidence.map((e) => e.values?.check)).toEqual(["Is Single Value", "Conflicting Labels", "Data Duplicates"]);
  });

  it("is medium for a 40 %-null generic check and info-lowered for a single-value warning", () => {
    const f = only(detectOn(integrityFailed, { checks: [
      { name: "missing_values", status: "fail", category: "integrity", value: 0.4, threshold: 0.05, columns: ["last_login_days"] },
      { name: "single_value_column", status: "warn", category: "integrity", columns: ["country"] },
    ] }));
    expect(f.severity).toBe("medium");
    expect(f.evidence[0]).toMatchObject({ observed: 0.4, threshold: 0.05 });
  });

  it("stays quiet when every integrity check passes (hard negative)", () => {
    expect(detectOn(integrityFailed, { checks: [{ name: "missing_values", status: "pass", value: 0.0016, threshold: 0.05 }, { name: "duplicate_rows", status: "pass", value: 0.0007 }] })).toEqual([]);
  });
});

describe("CR-02 leakage failed", () => {
  it("is high for a failed Train Test Samples Mix, with the share, counts and the report's own threshold", () => {
    const body = loadJson("samples/mlflow-logged-dataset.json");
    const f = only(detectOn(leakageFailed, body.checks_artifacts as Record<string, unknown>));
    expect(f.severity).toBe("high");
    expect(f.description).toMatch(/42\.17 % of the test rows \(5,216 \/ 12,368 rows\) also appear in train \(allowed: 5\.00 %\)/);
    expect(f.evidence[0]).toMatchObject({ threshold: 0.05, artifact: "checks_artifacts.results.train_test_validation[0].json_result" });
  });

  it("applies the catalog's 5 % to a samples mix run without a condition", () => {
    expect(only(detectOn(leakageFailed, { reports: [dcCheck("Train Test Samples Mix", { ratio: 0.12 })] })).severity).toBe("high");
  });

  it("stays quiet for a passing samples mix and a check that does not apply (hard negative)", () => {
    const report = dcSuite("Train Test Validation Suite", [
      dcCheck("Train Test Samples Mix", { ratio: 0.01 }, ["PASS", "Percentage of test data samples that appear in train data is less or equal to 5%", "Percent of test data samples that appear in train data: 1%"]),
      { header: "Index Train Test Leakage", type: "CheckFailure", check: { name: "Index Train Test Leakage", params: {}, summary: "" }, exception: "Dataset does not contain an index" },
    ]);
    expect(detectOn(leakageFailed, { reports: [report] })).toEqual([]);
  });
});

describe("shortcut risk (Feature/Property Label Correlation Change)", () => {
  it("is high when a property predicts a class in train but not in test", () => {
    const body = loadJson("samples/legacy-python-client.json");
    const f = only(detectOn(shortcutRisk, body.deepchecks_artifacts as Record<string, unknown>));
    expect(f.severity).toBe("high");
    expect(f.description).toMatch(/"Brightness" predicts "late_blight" with PPS 0\.418 in train but 0\.0417 in test \(difference 0\.376, allowed < 0\.2\)/);
  });

  it("stays quiet when the PPS difference passes (the full image sample's 0.05) (hard negative)", () => {
    const body = loadJson("samples/full-image-classification.json");
    expect(detectOn(shortcutRisk, body.checks_artifacts as Record<string, unknown>)).toEqual([]);
  });
});

describe("new labels", () => {
  it("is high for a failed New Label Train Test, naming the labels", () => {
    const check = dcCheck("New Label Train Test", { n_samples: 1000, n_new_labels_samples: 40, new_labels: ["refurbished"], n_samples_per_new_label: { refurbished: 40 } }, ["FAIL", "Number of new label values is less or equal to 0", "Found 1 new labels in test data: ['refurbished']"]);
    const f = only(detectOn(newLabels, { reports: [check] }));
    expect(f.severity).toBe("high");
    expect(f.description).toMatch(/"refurbished" \(4\.00 % of test rows\)/);
  });

  it("stays quiet when no new labels are found (hard negative)", () => {
    const check = dcCheck("New Labels", { new_labels: {}, all_labels_count: 1639 }, ["PASS", "Percentage of new labels in the test set is less or equal to 0.5%", "No new labels were found in test set."]);
    expect(detectOn(newLabels, { reports: [check] })).toEqual([]);
  });
});

describe("CR-06 schema anomaly", () => {
  it("is high for a failed GE table-columns expectation and medium for a warning", () => {
    const ge = { success: false, suite_name: "s", statistics: {}, results: [{ success: false, expectation_config: { type: "expect_table_columns_to_match_set", kwargs: { column_set: ["a", "b"] } }, result: { observed_value: ["a", "b", "c"] }, exception_info: { raised_exception: false } }] };
    expect(only(detectOn(schemaAnomaly, { reports: [ge] })).severity).toBe("high");
    expect(only(detectOn(schemaAnomaly, { checks: [{ name: "schema_match", status: "warn", category: "schema", message: "dtype of age changed" }] })).severity).toBe("medium");
  });

  it("stays quiet for passing schema checks (hard negative)", () => {
    expect(detectOn(schemaAnomaly, { checks: [{ name: "schema_match", status: "pass", category: "schema" }] })).toEqual([]);
  });
});

describe("CR-07 expectation failed", () => {
  it("is medium for a failed range expectation, with the unexpected share and what mostly allowed", () => {
    const f = only(detectOn(expectationFailed, { reports: [loadJson("checks/great-expectations-1x-validation.json")] }));
    expect(f.severity).toBe("medium");
    expect(f.description).toMatch(/2 of 8 expectations failed/);
    expect(f.description).toMatch(/expect_column_values_to_be_between on "age" \(12\.00 % unexpected, allowed 0\.00 %\)/);
  });

  it("is high when most values are unexpected", () => {
    const ge = { success: false, results: [{ success: false, expectation_config: { type: "expect_column_values_to_not_be_null", kwargs: { column: "email" } }, result: { element_count: 100, unexpected_count: 70, unexpected_percent: 70 } }] };
    expect(only(detectOn(expectationFailed, { reports: [ge] })).severity).toBe("high");
  });

  it("stays quiet on the healthy sample: 13/13 pass, including mostly expectations with unexpected values (hard negative)", () => {
    const body = loadJson("samples/tabular-healthy.json");
    expect(detectOn(expectationFailed, body.checks_artifacts as Record<string, unknown>)).toEqual([]);
  });
});

describe("CR-01 other checks failed", () => {
  it("is medium for a failed size comparison and low for an uncategorized warning", () => {
    const size = dcCheck("Datasets Size Comparison", { Train: 50000, Test: 300 }, ["FAIL", "Test-Train size ratio is greater than 0.01", "Test-Train size ratio is 0.006"]);
    expect(only(detectOn(checkFailed, { reports: [size] })).severity).toBe("medium");
    expect(only(detectOn(checkFailed, { checks: [{ name: "latency_budget", status: "warn" }] })).severity).toBe("low");
  });

  it("stays quiet when those checks pass (hard negative)", () => {
    const body = loadJson("samples/mlflow-logged-dataset.json");
    expect(detectOn(checkFailed, body.checks_artifacts as Record<string, unknown>)).toEqual([]);
  });
});
