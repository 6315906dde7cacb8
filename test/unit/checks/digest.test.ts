import { describe, expect, it } from "vitest";
import { describeChecks, digestChecks } from "../../../nodes/checks/digest.js";
import { parseChecksArtifact } from "../../../nodes/checks/parse.js";
import { describeDataset, digestDataset } from "../../../nodes/dataset/digest.js";
import { parseDatasetArtifact } from "../../../nodes/dataset/parse.js";
import { loadJson } from "../dataset/analyze.js";

describe("digests for the language model stay bounded", () => {
  it("checks: failures first, at most 40 outcomes and 8 details each, however large the report", () => {
    const checks = Array.from({ length: 500 }, (_, i) => ({ name: `check_${i}`, status: i % 50 === 0 ? "fail" : "pass", message: "x".repeat(2000) }));
    const digest = digestChecks(parseChecksArtifact({ checks, reports: [loadJson("checks/evidently-legacy-drift-report.json")] }));
    expect(digest.outcomes).toHaveLength(40);
    expect(digest.omitted).toBe(462);
    expect(digest.outcomes.slice(0, 10).every((o) => o.status === "fail")).toBe(true);
    expect(digest.outcomes.every((o) => o.message.length <= 240 && o.details.length <= 8)).toBe(true);
    expect(JSON.stringify(digest).length).toBeLessThan(40_000);
  });

  it("dataset: top 25 columns (most missing first, target first) and top 25 labels per split", () => {
    const columns = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`f${i}`, { dtype: "float64", count: 1000 - i, missing: i }]));
    const labels = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`class_${i}`, 1000 - i]));
    const stats = parseDatasetArtifact({ metadata: { target: "f3" }, statistics: { columns, class_distribution: { train: labels } } });
    const digest = digestDataset(stats);
    expect(digest.columns.total).toBe(400);
    expect(digest.columns.shown).toHaveLength(25);
    expect(digest.columns.shown[0]!.name).toBe("f3");
    expect(digest.columns.shown[1]!.name).toBe("f399");
    expect(Object.keys(digest.class_distribution.train!)).toHaveLength(26);
    expect(digest.class_distribution.train!["(975 more labels)"]).toBeGreaterThan(0);
    expect(JSON.stringify(digest).length).toBeLessThan(20_000);
  });

  it("describe() names each shape read, with its size", () => {
    const body = loadJson("samples/mlflow-logged-dataset.json");
    expect(describeDataset(parseDatasetArtifact(body.dataset_artifacts as Record<string, unknown>))).toEqual([
      'dataset_artifacts.statistics (MLflow logged dataset "orders_returns_train", digest 5a0eedfa, s3 source, 12 columns, 49,474 rows)',
    ]);
    const drift = loadJson("samples/tabular-drift-evidently.json");
    expect(describeChecks(parseChecksArtifact(drift.checks_artifacts as Record<string, unknown>))).toEqual([
      "checks_artifacts.reports[0] (Evidently snapshot (0.6/0.7 API), 11 checks: 7 fail, 4 pass)",
      "checks_artifacts.checks (generic check records, 6 checks: 1 fail, 2 warn, 3 pass)",
    ]);
  });
});
