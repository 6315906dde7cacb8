import { describe, expect, it } from "vitest";
import { EvidenceSchema, FindingRecommendationSchema, FindingSchema, SeveritySchema } from "../../../domain/result.js";
import { CHECKS_DETECTORS } from "../../../nodes/checks/catalog.js";
import { parseChecksArtifact } from "../../../nodes/checks/parse.js";
import { loadJson } from "../dataset/analyze.js";
import { dcCheck } from "./build.js";

/** The check-report inputs of the tests, each with the request's dataset name; together every detector fires on them. */
const sample = (name: string) => {
  const body = loadJson(`samples/${name}.json`);
  return (body.checks_artifacts ?? body.deepchecks_artifacts) as Record<string, unknown>;
};
const one = (fixture: string) => ({ reports: [loadJson(fixture)] });

const INPUTS: Array<[string, Record<string, unknown>, string | null]> = [
  ["legacy image sample (shortcut, drift, coverage)", sample("legacy-python-client"), null],
  ["Evidently tabular drift sample", sample("tabular-drift-evidently"), null],
  ["full image sample (minor feature drift, label drift)", sample("full-image-classification"), null],
  ["MLflow-logged samples mix", sample("mlflow-logged-dataset"), null],
  ["Deepchecks data integrity suite", one("checks/deepchecks-data-integrity-suite.json"), null],
  ["Deepchecks model evaluation suite", one("checks/deepchecks-model-evaluation-suite.json"), null],
  ["Deepchecks train-test validation suite", one("checks/deepchecks-train-test-validation-suite.json"), null],
  ["TFDV anomalies", one("checks/tfdv-anomalies.json"), null],
  ["Great Expectations 1.x validation", one("checks/great-expectations-1x-validation.json"), null],
  ["GE validation with a critical expectation", one("real/great_expectations/validation-null-labels-critical/validation.json"), null],
  ["GE validation with an info expectation", one("real/great_expectations/validation-info-only/validation.json"), null],
  ["Evidently data summary with faults (stated facts)", one("real/evidently/data-summary-faults/report.json"), null],
  ["Deepchecks Is Single Value without a condition", one("real/deepchecks/is-single-value-no-condition/check.json"), null],
  ["legacy suite map for another dataset", loadJson("checks/deepchecks-legacy-suite-map.json"), "orders-returns"],
  [
    "New Label Train Test failed",
    { reports: [dcCheck("New Label Train Test", { n_samples: 1000, n_new_labels_samples: 40, new_labels: ["refurbished"], n_samples_per_new_label: { refurbished: 40 } }, ["FAIL", "Number of new label values is less or equal to 0", "Found 1 new labels in test data: ['refurbished']"])] },
    null,
  ],
  [
    "size comparison failed, uncategorized check warned",
    { reports: [dcCheck("Datasets Size Comparison", { Train: 50000, Test: 300 }, ["FAIL", "Test-Train size ratio is greater than 0.01", "Test-Train size ratio is 0.006"])], checks: [{ name: "latency_budget", status: "warn" }] },
    null,
  ],
];

describe("the check-report catalog", () => {
  it("lists each detector once, under a stable checks.* id, in catalog order", () => {
    expect(CHECKS_DETECTORS.map((d) => d.info.id)).toEqual([
      "checks.integrity_failed",
      "checks.leakage_failed",
      "checks.shortcut_risk",
      "checks.feature_drift",
      "checks.dataset_drift",
      "checks.label_drift",
      "checks.prediction_drift",
      "checks.new_labels",
      "checks.schema_anomaly",
      "checks.expectation_failed",
      "checks.missing_values",
      "checks.duplicates",
      "checks.constant_feature",
      "checks.model_eval_failed",
      "checks.coverage_gap",
      "checks.report_data_mismatch",
      "checks.check_failed",
    ]);
  });

  it.each(CHECKS_DETECTORS.map((d) => [d.info.id, d] as const))("%s documents its rule, title, threshold, severities and basis", (_, d) => {
    expect(d.info.rule).toMatch(/^(CR|DS)-\d{2}$/);
    for (const text of [d.info.title, d.info.threshold, d.info.basis]) expect(text.trim().length).toBeGreaterThan(10);
    expect(d.info.severities.length).toBeGreaterThan(0);
    for (const s of d.info.severities) expect(SeveritySchema.safeParse(s).success).toBe(true);
    expect(new Set(d.info.severities).size).toBe(d.info.severities.length);
  });
});

describe("what every check-report finding carries", () => {
  const fired = new Set<string>();

  it.each(INPUTS)("%s", (_, artifact, datasetName) => {
    const parsed = parseChecksArtifact(artifact, "checks_artifacts", datasetName);
    let count = 0;
    for (const detector of CHECKS_DETECTORS) {
      for (const f of detector.detect(parsed)) {
        count++;
        fired.add(detector.info.id);
        expect(f.id).toBe(detector.info.id);
        expect(FindingSchema.parse(f)).toEqual(f);
        expect(detector.info.severities).toContain(f.severity);
        expect(f.source).toBe("detector");
        expect(f.confidence).toBeGreaterThanOrEqual(0.05);
        expect(f.confidence).toBeLessThanOrEqual(0.95);
        for (const text of [f.title, f.description]) expect(text.trim().length).toBeGreaterThan(10);
        const rec = FindingRecommendationSchema.parse(f.recommendation);
        for (const text of [rec.action, rec.rationale]) expect(text.trim().length).toBeGreaterThan(20);
        expect(f.evidence.length).toBeGreaterThan(0);
        expect(f.evidence.length).toBeLessThanOrEqual(10);
        for (const e of EvidenceSchema.array().parse(f.evidence)) {
          expect(e.rule_id).toBe(detector.info.rule);
          expect(e.artifact).toMatch(/^checks_artifacts/);
          expect(e.text.trim().length).toBeGreaterThan(5);
        }
      }
    }
    expect(count).toBeGreaterThan(0);
  });

  it("covers every detector of the catalog (a detector added without an input here fails)", () => {
    expect([...fired].sort()).toEqual(CHECKS_DETECTORS.map((d) => d.info.id).sort());
  });
});
