import { describe, expect, it } from "vitest";
import { featureDrift } from "../../../nodes/checks/detectors/feature-drift.js";
import { schemaAnomaly } from "../../../nodes/checks/detectors/schema-anomaly.js";
import { parseChecksArtifact } from "../../../nodes/checks/parse.js";
import { loadJson } from "../dataset/analyze.js";
import { detectOn, only } from "./build.js";

// Anomalies built with tensorflow_metadata's message classes and serialized by protobuf json_format
// (scripts/fixtures/tfdv_anomalies.py), in MessageToJson's camelCase and with proto field names.
describe("TFDV anomalies", () => {
  for (const file of ["checks/tfdv-anomalies.json", "checks/tfdv-anomalies-proto-names.json"]) {
    it(`reads ${file}: one outcome per feature, ERROR → fail, WARNING → warn, by reason type`, () => {
      const r = parseChecksArtifact({ reports: [loadJson(file)] });
      expect(r.reports[0]).toMatchObject({ tool: "tfdv", format: "TFDV anomalies" });
      const by = (col: string) => r.outcomes.find((o) => o.columns[0] === col)!;
      expect(by("promo_code")).toMatchObject({ name: "SCHEMA_NEW_COLUMN", category: "schema", status: "fail" });
      expect(by("age")).toMatchObject({ name: "UNEXPECTED_DATA_TYPE", category: "schema", status: "fail" });
      expect(by("annual_income")).toMatchObject({ name: "FLOAT_TYPE_HAS_NAN", category: "integrity", status: "warn" });
      expect(by("payment_method")).toMatchObject({ category: "feature_drift", status: "fail", observed: 0.27, threshold: 0.1 });
    });
  }

  it("makes schema anomalies high (ERROR) and does not claim a drift share it cannot know", () => {
    const artifact = { reports: [loadJson("checks/tfdv-anomalies.json")] };
    expect(only(detectOn(schemaAnomaly, artifact)).severity).toBe("high");
    const drift = only(detectOn(featureDrift, artifact));
    expect(drift.description).toMatch(/^1 feature drifted: "payment_method" 0\.27 \(threshold 0\.1\)/);
    expect(drift.severity).toBe("medium");
  });

  it("reads an empty anomalies message as a passing validation (hard negative)", () => {
    const r = parseChecksArtifact({ reports: [{ anomalyInfo: {}, anomalyNameFormat: "SERIALIZED_PATH" }] });
    expect(r.outcomes).toEqual([expect.objectContaining({ tool: "tfdv", status: "pass" })]);
    expect(detectOn(schemaAnomaly, { reports: [{ anomalyInfo: {} }] })).toEqual([]);
  });
});
