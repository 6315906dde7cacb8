import { describe, expect, it } from "vitest";
import { datasetDrift } from "../../../nodes/checks/detectors/dataset-drift.js";
import { featureDrift } from "../../../nodes/checks/detectors/feature-drift.js";
import { labelDrift } from "../../../nodes/checks/detectors/label-drift.js";
import { predictionDrift } from "../../../nodes/checks/detectors/prediction-drift.js";
import { loadJson } from "../dataset/analyze.js";
import { dcCheck, detectOn, only } from "./build.js";

const sample = (name: string) => {
  const body = loadJson(`samples/${name}.json`);
  return (body.checks_artifacts ?? body.deepchecks_artifacts) as Record<string, unknown>;
};

describe("CR-03 feature drift", () => {
  it("is high when more than half the features drift (Evidently, 6 of 10)", () => {
    const f = only(detectOn(featureDrift, sample("tabular-drift-evidently")));
    expect(f.severity).toBe("high");
    expect(f.description).toMatch(/^6 of 10 features drifted \(share 0\.6\): "data_usage_gb" 0\.41/);
  });

  it("is medium for 3 of 7 failing image properties and low for a single WARN (brightness 0.17 vs a team-set 0.15)", () => {
    expect(only(detectOn(featureDrift, sample("legacy-python-client"))).severity).toBe("medium");
    const minor = only(detectOn(featureDrift, sample("full-image-classification")));
    expect(minor.severity).toBe("low");
    expect(minor.description).toMatch(/"Brightness" 0\.173 \(threshold 0\.15\)/);
  });

  it("is high when a drifted feature is among the three most important", () => {
    const value = { a: { "Drift score": 0.35, Method: "Kolmogorov-Smirnov", Importance: 0.5 }, b: { "Drift score": 0.05, Method: "Kolmogorov-Smirnov", Importance: 0.3 }, c: { "Drift score": 0.01, Method: "Kolmogorov-Smirnov", Importance: 0.1 }, d: { "Drift score": 0.0, Method: "Kolmogorov-Smirnov", Importance: 0.1 } };
    const check = dcCheck("Feature Drift", value, ["FAIL", "categorical drift score < 0.2 and numerical drift score < 0.2", "Found 1 numeric columns with Kolmogorov-Smirnov above threshold: {'a': '0.35'}"]);
    expect(only(detectOn(featureDrift, { reports: [check] })).severity).toBe("high");
  });

  it("reads legacy Evidently drift_by_columns, and stays quiet when nothing drifted (hard negative)", () => {
    expect(only(detectOn(featureDrift, { reports: [loadJson("checks/evidently-legacy-drift-report.json")] })).severity).toBe("medium");
    const calm = { metrics: [{ id: "x", metric_name: "ValueDrift(column=age,method=Wasserstein distance (normed),threshold=0.1)", config: { column: "age", threshold: 0.1 }, value: 0.03 }], tests: [] };
    expect(detectOn(featureDrift, { reports: [calm] })).toEqual([]);
  });
});

describe("CR-04 dataset drift", () => {
  it("is high for Evidently's share of drifted columns ≥ drift_share", () => {
    const f = only(detectOn(datasetDrift, sample("tabular-drift-evidently")));
    expect(f.severity).toBe("high");
    expect(f.description).toMatch(/6 of 10 columns drifted \(share 0\.6, dataset drift at ≥ 0\.5\)/);
  });

  it("applies the catalog's 0.25 to a domain classifier without a condition (legacy sample: AUC 0.82)", () => {
    const f = only(detectOn(datasetDrift, sample("legacy-python-client")));
    expect(f.severity).toBe("high");
    expect(f.description).toMatch(/AUC 0\.815 \(drift score 0\.631 against 0\.25, the catalog default\); it relies most on Brightness 0\.471/);
  });

  it("stays quiet when the domain classifier passes its condition (full image: 0.077 < 0.1) (hard negative)", () => {
    expect(detectOn(datasetDrift, sample("full-image-classification"))).toEqual([]);
    expect(detectOn(datasetDrift, { reports: [loadJson("checks/evidently-07-drift-snapshot.json")] })).toEqual([]);
  });
});

describe("CR-05 label drift and prediction drift", () => {
  it("label drift is high for a failed Label Drift (Cramér's V 0.28 vs 0.15)", () => {
    const f = only(detectOn(labelDrift, sample("full-image-classification")));
    expect(f.severity).toBe("high");
    expect(f.description).toMatch(/drift score 0\.283 \(Cramer's V\) against 0\.15/);
  });

  it("label drift is medium for a warned target-share check", () => {
    const f = only(detectOn(labelDrift, sample("tabular-drift-evidently")));
    expect(f.severity).toBe("medium");
    expect(f.description).toMatch(/Churn rate 26\.5% in train vs 33\.6% in validation/);
  });

  it("label drift stays quiet when Label Drift passes (legacy sample: 0.07) (hard negative)", () => {
    expect(detectOn(labelDrift, sample("legacy-python-client"))).toEqual([]);
  });

  it("prediction drift is high for a failed Prediction Drift and quiet when it passes", () => {
    expect(only(detectOn(predictionDrift, { reports: [loadJson("checks/deepchecks-model-evaluation-suite.json")] })).severity).toBe("high");
    const pass = dcCheck("Prediction Drift", { "Drift score": 0.04, Method: "Kolmogorov-Smirnov" }, ["PASS", "Prediction drift score < 0.15", "Found model prediction Kolmogorov-Smirnov drift score of 0.04"]);
    expect(detectOn(predictionDrift, { reports: [pass] })).toEqual([]);
  });
});
