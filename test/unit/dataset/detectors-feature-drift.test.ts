import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { computeDatasetArtifacts } from "../../../client/dataset/index.js";
import { featureDrift } from "../../../nodes/dataset/detectors/feature-drift.js";
import { datasetAnalyzer } from "../../../nodes/dataset/node.js";
import { parseDatasetArtifact } from "../../../nodes/dataset/parse.js";
import { analyzeWith } from "./analyze.js";
import { detectOn, only } from "./detect.js";

const num = (psi: number, ks = 0.05) => ({ kind: "numeric", psi, ks });
const cat = (psi: number, total_variation = 0.05) => ({ kind: "categorical", psi, total_variation });

describe("statistics.drift is read", () => {
  it("keeps PSI with KS or total variation per column and its path, skipping entries without a PSI", () => {
    const stats = parseDatasetArtifact({ statistics: { num_rows: 10, drift: { a: num(0.3, 0.2), b: cat(0.01, 0.02), c: { ks: 0.4 } } } });
    expect(stats.shapes).toContain("drift");
    expect(stats.drift).toEqual([
      { column: "a", kind: "numeric", psi: 0.3, ks: 0.2, totalVariation: null, path: "dataset_artifacts.statistics.drift.a" },
      { column: "b", kind: "categorical", psi: 0.01, ks: null, totalVariation: 0.02, path: "dataset_artifacts.statistics.drift.b" },
    ]);
  });
});

describe("CR-03 feature drift from client statistics", () => {
  it("is medium when a feature drifts significantly (PSI ≥ 0.25) and names it with its KS", () => {
    const f = only(detectOn(featureDrift, { num_rows: 100, drift: { income: num(0.41, 0.22), age: num(0.02), city: cat(0.05) } }));
    expect(f.severity).toBe("medium");
    expect(f.description).toContain('"income"');
    expect(f.evidence[0]).toMatchObject({ artifact: "dataset_artifacts.statistics.drift.income", observed: 0.41, threshold: 0.25, values: { column: "income", ks: 0.22 } });
  });

  it("is high when at least half of the compared features drift significantly", () => {
    const f = only(detectOn(featureDrift, { num_rows: 100, drift: { a: num(0.3), b: cat(0.6, 0.4), c: num(0.01), d: num(0.26) } }));
    expect(f.severity).toBe("high");
    expect(f.evidence.map((e) => e.values?.column)).toEqual(["b", "a", "d"]);
  });

  it("is low when the largest shift is moderate (0.1 ≤ PSI < 0.25)", () => {
    expect(only(detectOn(featureDrift, { num_rows: 100, drift: { a: num(0.12), b: num(0.03) } })).severity).toBe("low");
  });

  it("stays quiet on stable features, and leaves out the target and identifier columns (hard negatives)", () => {
    expect(detectOn(featureDrift, { num_rows: 100, drift: { a: num(0.09), b: cat(0.0) } })).toEqual([]);
    const columns = { id: { dtype: "int64", count: 500, unique: 500 }, label: { dtype: "int64", count: 500, unique: 2 }, x: { dtype: "float64", count: 500, unique: 480 } };
    const drift = { id: num(5.2, 0.97), label: num(0.4), x: num(0.02) };
    expect(detectOn(featureDrift, { num_rows: 500, columns, drift }, { target: "label" })).toEqual([]);
  });
});

describe("the dataset analyzer on statistics the client computed", () => {
  it("reports the shifted features of the fixture tables and not the identifier", async () => {
    const dir = fileURLToPath(new URL("../../fixtures/client-dataset/", import.meta.url));
    const artifacts = await computeDatasetArtifacts({ data: `${dir}train.csv`, test: `${dir}test.csv`, target: "label" });
    const a = await analyzeWith(datasetAnalyzer, artifacts as unknown as Record<string, unknown>, "dataset_artifacts");
    const f = a.byId("dataset.feature_drift");
    // city (PSI 1.13, a city only test has) and score (0.26) shift significantly, income moderately (0.24).
    expect(f).toMatchObject({ severity: "medium", source: "detector" });
    expect(f!.evidence.map((e) => e.values?.column)).toEqual(["city", "score", "income"]);
    expect(a.byId("dataset.train_test_overlap")).toBeDefined();
  });
});
