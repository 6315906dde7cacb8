import { describe, expect, it } from "vitest";
import { checksAnalyzer } from "../../../nodes/checks/node.js";
import { parseChecksArtifact } from "../../../nodes/checks/parse.js";
import { loadJson, parseWith } from "../dataset/analyze.js";

const byName = (report: ReturnType<typeof parseChecksArtifact>, name: string) => report.outcomes.filter((o) => o.name === name);

// Fixtures written by deepchecks 0.19.1 itself (scripts/fixtures/deepchecks_reports.py).
describe("Deepchecks JSON", () => {
  it("reads a train-test validation SuiteResult: one outcome per condition, thresholds from the condition text", () => {
    const r = parseChecksArtifact({ reports: [loadJson("checks/deepchecks-train-test-validation-suite.json")] });
    expect(r.reports[0]).toMatchObject({ tool: "deepchecks", format: "Deepchecks SuiteResult", name: "Train Test Validation Suite" });
    expect(byName(r, "Train Test Samples Mix")[0]).toMatchObject({ category: "leakage", status: "fail", observed: 0.25, threshold: 0.05 });
    const drift = byName(r, "Feature Drift")[0]!;
    expect(drift).toMatchObject({ category: "feature_drift", status: "fail", threshold: 0.2, columns: ["annual_income"] });
    // numpy scalars arrive jsonpickled as {"dtype": "float64", "value": …}
    expect(drift.details.find((d) => d.name === "annual_income")!.score).toBeCloseTo(0.218, 3);
    expect(byName(r, "Multivariate Drift")[0]).toMatchObject({ category: "dataset_drift", status: "fail", threshold: 0.25 });
    expect(byName(r, "Multivariate Drift")[0]!.values.domain_classifier_auc).toBeCloseTo(0.693, 3);
    // Feature Label Correlation Change has two conditions: the PPS difference (shortcut) and train PPS (leakage).
    expect(byName(r, "Feature Label Correlation Change").map((o) => o.category).sort()).toEqual(["leakage", "shortcut"]);
    expect(r.rowCounts).toEqual([
      { role: "train", rows: 3360, source: "checks_artifacts.reports[0].results[3].value" },
      { role: "test", rows: 1000, source: "checks_artifacts.reports[0].results[3].value" },
    ]);
  });

  it("marks CheckFailures that say the check does not apply (no datetime or index, wrong model type) as not applicable", () => {
    const r = parseChecksArtifact({ reports: [loadJson("checks/deepchecks-train-test-validation-suite.json"), loadJson("checks/deepchecks-model-evaluation-suite.json")] });
    expect(byName(r, "Index Train Test Leakage")[0]).toMatchObject({ status: "error", notApplicable: true });
    expect(byName(r, "Boosting Overfit")[0]).toMatchObject({ status: "error", notApplicable: true });
    expect(byName(r, "Weak Segments Performance").find((o) => o.status === "error")).toMatchObject({ notApplicable: false });
  });

  it("reads a data-integrity SuiteResult: single-valued columns, conflicting labels, duplicates (WARN)", () => {
    const r = parseChecksArtifact({ reports: [loadJson("checks/deepchecks-data-integrity-suite.json")] });
    expect(byName(r, "Is Single Value")[0]).toMatchObject({ status: "fail", columns: ["country"] });
    expect(byName(r, "Conflicting Labels")[0]).toMatchObject({ status: "fail", observed: 0.0375, threshold: 0 });
    expect(byName(r, "Data Duplicates")[0]!.observed).toBeCloseTo(0.0893, 4);
    expect(byName(r, "Data Duplicates")[0]!.status).toBe("warn");
    expect(byName(r, "Outlier Sample Detection")[0]!.status).toBe("none");
  });

  it("reads a single CheckResult sent as a report", () => {
    const r = parseChecksArtifact({ reports: [loadJson("checks/deepchecks-samples-mix-check.json")] });
    expect(r.reports[0]!.format).toBe("Deepchecks CheckResult");
    expect(r.outcomes).toHaveLength(1);
    expect(r.outcomes[0]).toMatchObject({ name: "Train Test Samples Mix", status: "fail", observed: 0.25 });
  });

  it("reads the legacy suite map with json_result as a string, and switched-off suites from its config", async () => {
    const r = await parseWith(checksAnalyzer, loadJson("checks/deepchecks-legacy-suite-map.json"), "deepchecks_artifacts", "credit-default");
    expect(r.reports[0]!.format).toMatch(/legacy Deepchecks suite map/);
    expect(r.outcomes[0]).toMatchObject({ name: "Train Test Samples Mix", report: "train_test_validation", path: "deepchecks_artifacts.results.train_test_validation[0].json_result" });
    expect(r.suitesSkipped).toEqual(["data_integrity", "model_evaluation"]);
    expect(r.reportDatasetName).toBe("credit-default");
  });

  it("reads the legacy map of the original client (json_result objects, images ignored, a CheckFailure, More Info dicts)", () => {
    const body = loadJson("samples/legacy-python-client.json");
    const r = parseChecksArtifact(body.deepchecks_artifacts as Record<string, unknown>, "deepchecks_artifacts");
    const drift = byName(r, "Image Property Drift")[0]!;
    expect(drift.columns).toEqual(["Brightness", "RMS Contrast", "Mean Green Relative Intensity"]);
    const pps = byName(r, "Property Label Correlation Change")[0]!;
    expect(pps).toMatchObject({ category: "shortcut", status: "fail", threshold: 0.2 });
    expect(pps.details.find((d) => d.flagged)).toMatchObject({ name: "Brightness", subject: "late_blight" });
    expect(byName(r, "Label Property Outliers")[0]).toMatchObject({ status: "error", notApplicable: true });
    expect(byName(r, "Image Dataset Drift")[0]).toMatchObject({ status: "none", category: "dataset_drift" });
    expect(JSON.stringify(r)).not.toMatch(/iVBOR/);
  });

  it("keeps the counts a legacy display_txt carries", () => {
    const body = loadJson("samples/mlflow-logged-dataset.json");
    const r = parseChecksArtifact(body.checks_artifacts as Record<string, unknown>);
    expect(byName(r, "Train Test Samples Mix")[0]!.values).toMatchObject({ matched_rows: 5216, total_rows: 12368 });
  });
});
