import { describe, expect, it } from "vitest";
import { parseChecksArtifact } from "../../../nodes/checks/parse.js";
import { parseMetricName } from "../../../nodes/checks/parse/evidently.js";
import { loadJson } from "../dataset/analyze.js";

// Fixtures written by evidently 0.7.23 itself (scripts/fixtures/evidently_reports.py).
describe("Evidently reports", () => {
  it("reads a current-API snapshot: DriftedColumnsCount, ValueDrift per column, tests linked by metric id", () => {
    const r = parseChecksArtifact({ reports: [loadJson("checks/evidently-07-drift-snapshot.json")] });
    expect(r.reports[0]!.format).toBe("Evidently snapshot (0.6/0.7 API)");
    const count = r.outcomes.find((o) => o.category === "dataset_drift")!;
    expect(count).toMatchObject({ status: "pass", threshold: 0.5, values: { count: 2 } });
    expect(count.observed).toBeCloseTo(1 / 3, 6);
    const income = r.outcomes.find((o) => o.columns[0] === "annual_income")!;
    expect(income).toMatchObject({ category: "feature_drift", status: "fail", threshold: 0.1, condition: "Value Drift for column annual_income" });
    expect(r.outcomes.filter((o) => o.category === "feature_drift" && o.status === "fail").map((o) => o.columns[0])).toEqual(["annual_income", "utilisation"]);
  });

  it("reads the sample's 0.7.16+ snapshot with resolved params (metric_name + config)", () => {
    const body = loadJson("samples/tabular-drift-evidently.json");
    const r = parseChecksArtifact(body.checks_artifacts as Record<string, unknown>);
    expect(r.outcomes.find((o) => o.category === "dataset_drift")).toMatchObject({ status: "fail", observed: 0.6, threshold: 0.5 });
    expect(r.outcomes.filter((o) => o.tool === "evidently" && o.category === "feature_drift" && o.status === "fail")).toHaveLength(6);
  });

  it("reads a 0.6-style snapshot with metric_id only and no tests, deciding drift by the method's direction", () => {
    const r = parseChecksArtifact({
      reports: [{ metrics: [
        { id: "a1", metric_id: "ValueDrift(column=age,method=K-S p_value,threshold=0.05)", value: 0.003 },
        { id: "a2", metric_id: "ValueDrift(column=income,method=K-S p_value,threshold=0.05)", value: 0.4 },
        { id: "a3", metric_id: "ValueDrift(column=city,method=Jensen-Shannon distance,threshold=0.1)", value: 0.2 },
      ] }],
    });
    expect(r.outcomes.map((o) => [o.columns[0], o.status])).toEqual([["age", "fail"], ["income", "pass"], ["city", "fail"]]);
  });

  it("reads a legacy report: DatasetDriftMetric and DataDriftTable with drift_by_columns", () => {
    const r = parseChecksArtifact({ reports: [loadJson("checks/evidently-legacy-drift-report.json")] });
    expect(r.reports[0]!.format).toMatch(/legacy API/);
    expect(r.outcomes.find((o) => o.name === "DatasetDriftMetric")).toMatchObject({ category: "dataset_drift", status: "pass", threshold: 0.5 });
    // DataDriftTable carries the counts and per-column results but not drift_share.
    const table = r.outcomes.find((o) => o.name === "DataDriftTable")!;
    expect(table).toMatchObject({ category: "dataset_drift", status: "pass", threshold: null, values: { count: 2, columns: 6 } });
    expect(table.details.filter((d) => d.flagged).map((d) => d.name)).toEqual(["annual_income", "utilisation"]);
    expect(table.details.find((d) => d.name === "age")).toMatchObject({ method: "Wasserstein distance (normed)", threshold: 0.1, flagged: false });
  });

  it("reads a legacy test suite: statuses, groups, values and thresholds of each test", () => {
    const r = parseChecksArtifact({ reports: [loadJson("checks/evidently-legacy-stability-tests.json")] });
    expect(r.outcomes).toHaveLength(18);
    const missing = r.outcomes.find((o) => o.status === "fail" && o.columns[0] === "annual_income" && /Missing/.test(o.name))!;
    expect(missing).toMatchObject({ category: "integrity", observed: 0.075, threshold: 0 });
    expect(r.outcomes.find((o) => o.name === "Column Types")).toMatchObject({ category: "schema", status: "pass" });
  });

  it("splits metric names into type and parameters, respecting brackets", () => {
    expect(parseMetricName("ValueDrift(column=age,method=K-S p_value,threshold=0.05)")).toEqual({ type: "ValueDrift", params: { column: "age", method: "K-S p_value", threshold: "0.05" } });
    expect(parseMetricName("ColumnSummary(columns=['a', 'b'],x=1)").params).toEqual({ columns: "['a', 'b']", x: "1" });
    expect(parseMetricName("RowCount()")).toEqual({ type: "RowCount", params: {} });
  });
});
