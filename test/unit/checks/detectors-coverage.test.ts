import { describe, expect, it } from "vitest";
import { coverageGap } from "../../../nodes/checks/detectors/coverage-gap.js";
import { modelEvalFailed } from "../../../nodes/checks/detectors/model-eval-failed.js";
import { reportDataMismatch } from "../../../nodes/checks/detectors/report-data-mismatch.js";
import { loadJson } from "../dataset/analyze.js";
import { dcCheck, dcSuite, detectOn, only } from "./build.js";

describe("CR-08 model evaluation failed", () => {
  it("is high when the model barely beats a simple baseline", () => {
    const f = only(detectOn(modelEvalFailed, { reports: [loadJson("checks/deepchecks-model-evaluation-suite.json")] }));
    expect(f.severity).toBe("high");
    expect(f.description).toMatch(/"Simple Model Comparison" failed/);
  });

  it("is medium for a train–test degradation alone, and quiet when evaluation checks pass (hard negative)", () => {
    const degraded = dcCheck("Train Test Performance", "[]", ["FAIL", "Train-Test scores relative degradation is less than 0.1", "Found max degradation of 23% for metric F1"]);
    expect(only(detectOn(modelEvalFailed, { reports: [degraded] })).severity).toBe("medium");
    const fine = dcCheck("Roc Report", { "1": 0.93 }, ["PASS", "AUC score for all the classes is greater than 0.7", "All classes passed, minimum AUC found is 0.93 for class 1"]);
    expect(detectOn(modelEvalFailed, { reports: [fine] })).toEqual([]);
  });
});

describe("CR-09 coverage gap", () => {
  it("reports a check that does not apply as a coverage note (info), not a fault, and switched-off suites", () => {
    const body = loadJson("samples/legacy-python-client.json");
    const f = only(detectOn(coverageGap, body.deepchecks_artifacts as Record<string, unknown>));
    expect(f.severity).toBe("info");
    expect(f.description).toMatch(/"Label Property Outliers" does not apply to this task or data .*: a coverage note, not a data fault/);
    expect(f.description).toMatch(/Suites not run: model evaluation/);
  });

  it("reports checks that errored and reports that were not recognized", () => {
    const report = dcSuite("Suite", [{ header: "Weak Segments Performance", type: "CheckFailure", check: { name: "Weak Segments Performance", params: {}, summary: "" }, exception: "unable to train an error model" }]);
    const f = only(detectOn(coverageGap, { reports: [report, { unknown: true }] }));
    expect(f.description).toMatch(/1 check\(s\) could not run: "Weak Segments Performance"/);
    expect(f.evidence.map((e) => e.artifact)).toContain("checks_artifacts.reports[1]");
  });

  it("stays quiet when every check ran (hard negative)", () => {
    const body = loadJson("samples/full-image-classification.json");
    expect(detectOn(coverageGap, body.checks_artifacts as Record<string, unknown>)).toEqual([]);
  });
});

describe("CR-10 report/data mismatch", () => {
  it("flags a suite map for another dataset than the request", () => {
    const f = only(detectOn(reportDataMismatch, loadJson("checks/deepchecks-legacy-suite-map.json"), "orders-returns"));
    expect(f.severity).toBe("medium");
    expect(f.description).toMatch(/dataset "credit-default" but the request is for "orders-returns"/);
  });

  it("flags reports that disagree on a split's rows by more than 1 % and drift columns missing from the validated table", () => {
    const size = (train: number) => dcCheck("Datasets Size Comparison", { Train: train, Test: 1000 }, ["PASS", "Test-Train size ratio is greater than 0.01", "ok"]);
    const f = only(detectOn(reportDataMismatch, { reports: [size(3360), size(3600)] }));
    expect(f.evidence[0]!.text).toMatch(/train rows: 3,360 .* but 3,600/);
    const drifted = { metrics: [{ id: "m", metric_name: "ValueDrift(column=zip_code,method=Jensen-Shannon distance,threshold=0.1)", config: { column: "zip_code", threshold: 0.1 }, value: 0.3 }], tests: [] };
    const g = only(detectOn(reportDataMismatch, { reports: [loadJson("checks/great-expectations-1x-validation.json"), drifted] }));
    expect(g.description).toMatch(/Drift was measured on "zip_code"/);
  });

  it("stays quiet when names and counts agree (hard negative)", () => {
    const body = loadJson("samples/mlflow-logged-dataset.json");
    expect(detectOn(reportDataMismatch, body.checks_artifacts as Record<string, unknown>, "orders-returns")).toEqual([]);
    expect(detectOn(reportDataMismatch, loadJson("checks/deepchecks-legacy-suite-map.json"), "Credit Default")).toEqual([]);
  });
});
