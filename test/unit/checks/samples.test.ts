import { describe, expect, it } from "vitest";
import { AgentResultSchema, severityRank } from "../../../domain/result.js";
import type { ChecksFacts } from "../../../nodes/checks/facts.js";
import { ChecksFactsSchema } from "../../../nodes/checks/facts.js";
import { checksAnalyzer } from "../../../nodes/checks/node.js";
import { coveredIds } from "../../../nodes/root-causes.js";
import { type Analysis, analyzeWith, loadJson } from "../dataset/analyze.js";

async function analyzeSample(name: string): Promise<Analysis<ChecksFacts>> {
  const body = loadJson(`samples/${name}.json`);
  const field = body.deepchecks_artifacts ? "deepchecks_artifacts" : "checks_artifacts";
  return analyzeWith(checksAnalyzer, body[field] as Record<string, unknown>, field, (body.dataset_name as string) ?? null);
}

// What a careful ML engineer concludes from each sample (test/fixtures/samples/README.md), from the checks side.
describe("checks analyzer on the sample requests", () => {
  it("full-image-classification: label drift (Cramér's V 0.28) is high; brightness drift 0.17 vs 0.15 is minor", async () => {
    const a = await analyzeSample("full-image-classification");
    // One shift seen by two checks of one suite: one finding led by the label drift, the brightness warning in it.
    expect(a.findings.map((f) => [coveredIds(f), f.severity])).toEqual([[["checks.label_drift", "checks.feature_drift"], "high"]]);
    expect(a.findings[0]!.description).toMatch(/Minor feature drift \(low\): 1 of 7 features drifted \(share 0\.143\): "Brightness" 0\.173 \(threshold 0\.15\)/);
    expect(a.facts).toMatchObject({ label_drift_detected: true, drifted_features: ["Brightness"], checks_failed: 1, checks_warned: 1, tools: ["deepchecks"] });
    expect(a.facts.label_drift).toBeCloseTo(0.283, 3);
    expect(a.result.analyzed_artifacts).toEqual(['checks_artifacts.reports[0] (Deepchecks SuiteResult "Train Test Validation Suite", 5 checks: 1 fail, 1 warn, 3 pass)']);
  });

  it("legacy-python-client: covariate shift, a brightness shortcut, label drift not an issue, the CheckFailure a coverage note", async () => {
    const a = await analyzeSample("legacy-python-client");
    const shift = a.byId("checks.dataset_drift")!;
    expect(shift.severity).toBe("high");
    expect(coveredIds(shift)).toEqual(["checks.dataset_drift", "checks.feature_drift"]);
    expect(shift.description).toMatch(/Features drifted between train and evaluation data \(medium\)/);
    expect(a.byId("checks.shortcut_risk")).toMatchObject({ severity: "high" });
    expect(a.byId("checks.shortcut_risk")!.description).toMatch(/late_blight/);
    expect(a.byId("checks.label_drift")).toBeUndefined();
    const gap = a.byId("checks.coverage_gap")!;
    expect(gap.severity).toBe("info");
    expect(gap.description).toMatch(/Label Property Outliers.*not a data fault/);
    expect(a.byId("checks.integrity_failed")).toBeUndefined();
    expect(a.facts).toMatchObject({ label_drift_detected: false, dataset_drift_detected: true, shortcut_features: ["Brightness"] });
    // The old client's response model: severity only high|medium|low.
    expect(a.result.analysis.every((p) => ["high", "medium", "low"].includes(p.findings.severity))).toBe(true);
  });

  it("tabular-healthy: Great Expectations 13/13 pass, mostly expectations included: no findings", async () => {
    const a = await analyzeSample("tabular-healthy");
    expect(a.findings).toEqual([]);
    expect(a.result.severity).toBe("info");
    expect(a.facts).toMatchObject({ checks_total: 13, checks_failed: 0, tools: ["great_expectations"] });
  });

  it("tabular-drift-evidently: 6/10 columns drifted → dataset drift high; 40 % nulls; constant country; churn rate shift", async () => {
    const a = await analyzeSample("tabular-drift-evidently");
    expect(a.byId("checks.dataset_drift")?.severity).toBe("high");
    // The Evidently report's dataset and feature drift are one shift; the churn-rate check compares other splits.
    expect(coveredIds(a.byId("checks.dataset_drift")!)).toEqual(["checks.dataset_drift", "checks.feature_drift"]);
    expect(coveredIds(a.byId("checks.label_drift")!)).toEqual(["checks.label_drift"]);
    const integrity = a.byId("checks.integrity_failed")!;
    expect(integrity.severity).toBe("medium");
    expect(integrity.description).toMatch(/last_login_days.*country/);
    expect(a.byId("checks.label_drift")!.description).toMatch(/26\.5% in train vs 33\.6%/);
    expect(a.facts.drift_share).toBe(0.6);
    expect(a.facts.drifted_features).toHaveLength(6);
    expect(a.facts.nonfinite_columns).toEqual(["last_login_days"]);
  });

  it("mlflow-logged-dataset: Train Test Samples Mix 42.17 % → leakage high", async () => {
    const a = await analyzeSample("mlflow-logged-dataset");
    expect(a.findings[0]).toMatchObject({ id: "checks.leakage_failed", severity: "high" });
    expect(a.findings[0]!.confidence).toBeGreaterThanOrEqual(0.85);
    expect(a.facts).toMatchObject({ leakage_failures: ["Train Test Samples Mix"], row_counts: { train: 49474, test: 12368 } });
    expect(a.facts.overlap_fraction).toBeCloseTo(0.4217, 4);
    expect(a.findings.filter((f) => severityRank(f.severity) <= severityRank("high")).map((f) => f.id)).toEqual(["checks.leakage_failed"]);
  });

  it("produces results and facts that satisfy the published schemas for every sample", async () => {
    for (const name of ["full-image-classification", "legacy-python-client", "tabular-healthy", "tabular-drift-evidently", "mlflow-logged-dataset"]) {
      const a = await analyzeSample(name);
      expect(AgentResultSchema.strict().safeParse(a.result).error?.issues ?? [], name).toEqual([]);
      expect(ChecksFactsSchema.strict().safeParse(a.facts).success, name).toBe(true);
    }
  });
});

describe("checks analyzer on every report written by the real tools", () => {
  const fixtures = [
    "deepchecks-train-test-validation-suite", "deepchecks-data-integrity-suite", "deepchecks-model-evaluation-suite", "deepchecks-samples-mix-check",
    "evidently-07-drift-snapshot", "evidently-legacy-drift-report", "evidently-legacy-stability-tests",
    "great-expectations-1x-validation", "great-expectations-018-validation", "tfdv-anomalies",
  ];
  it("gives results that satisfy the published schema, every finding with evidence and a recommendation", async () => {
    for (const name of fixtures) {
      const a = await analyzeWith(checksAnalyzer, { reports: [loadJson(`checks/${name}.json`)] }, "checks_artifacts");
      expect(AgentResultSchema.strict().safeParse(a.result).error?.issues ?? [], name).toEqual([]);
      expect(a.result.error_message, name).toBeNull();
      expect(a.findings.length, name).toBeGreaterThan(0);
      expect(a.findings.every((f) => f.evidence.length > 0 && f.recommendation !== null), name).toBe(true);
    }
  });
});
