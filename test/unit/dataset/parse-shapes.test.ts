import { describe, expect, it } from "vitest";
import { parseDatasetArtifact } from "../../../nodes/dataset/parse.js";
import { loadJson } from "./analyze.js";

describe("dataset statistics: current shapes", () => {
  it("reads per-split rows, per-split class counts and columns from the full image-classification sample", () => {
    const body = loadJson("samples/full-image-classification.json");
    const stats = parseDatasetArtifact(body.dataset_artifacts as Record<string, unknown>);
    expect(stats.numRows).toBe(12248);
    expect(stats.splitRows).toEqual({ train: 9429, val: 1180, test: 1639 });
    expect(stats.classCounts.train?.beverages).toBe(2500);
    expect(stats.classCounts.test?.baby_care).toBe(83);
    expect(stats.duplicates).toMatchObject({ count: 37, fraction: 0.00302 });
    expect(stats.trainTestOverlap).toMatchObject({ count: 0, fraction: 0 });
    expect(stats.channels.test?.mean).toEqual([0.5071, 0.4694, 0.4162]);
    expect(stats.task).toBe("classification");
    expect(stats.modality).toBe("image");
    expect(stats.splitStrategy).toMatch(/stratified 89\/11/);
  });

  it("reads the columns map with missing counts and fractions", () => {
    const body = loadJson("samples/tabular-healthy.json");
    const stats = parseDatasetArtifact(body.dataset_artifacts as Record<string, unknown>);
    const income = stats.columns.find((c) => c.name === "annual_income")!;
    expect(income).toMatchObject({ dtype: "float64", kind: "numeric", count: 41824, missing: 176, missingFraction: 0.00419, unique: 6811, p75: 71350 });
    const home = stats.columns.find((c) => c.name === "home_ownership")!;
    expect(home).toMatchObject({ kind: "categorical", top: "MORTGAGE", topFrequency: 20486 });
    expect(stats.target).toBe("default_12m");
    expect(stats.columns).toHaveLength(13);
  });

  it("normalizes split names (training, validation, dev, holdout) and a flat class distribution", () => {
    const stats = parseDatasetArtifact({
      statistics: {
        splits: { training: { num_rows: 800 }, dev: { num_rows: 100 }, holdout: { num_samples: 100 } },
        class_distribution: { cat: 600, dog: 400 },
      },
    });
    expect(stats.splitRows).toEqual({ train: 800, val: 100, test: 100 });
    expect(stats.classCounts).toEqual({ all: { cat: 600, dog: 400 } });
    expect(stats.numRows).toBe(1000);
  });

  it("reads per-split class counts under splits.<name>.class_distribution and MLflow's string numbers", () => {
    const stats = parseDatasetArtifact({
      statistics: { splits: { train: { num_rows: "90", class_distribution: { a: 80, b: "10" } }, validation: { class_distribution: { a: 9, b: 1 } } } },
    });
    expect(stats.classCounts).toEqual({ train: { a: 80, b: 10 }, val: { a: 9, b: 1 } });
    expect(stats.splitRows).toEqual({ train: 90, val: 10 });
  });

  it("accepts duplicates and overlap as counts, fractions or objects, deriving the other half from the rows", () => {
    const stats = parseDatasetArtifact({
      statistics: { splits: { train: { num_rows: 1000 }, test: { num_rows: 200 } }, duplicates: 50, train_test_overlap: 0.1, conflicting_labels: { count: 3 }, label_issues: { percent: 4 } },
    });
    expect(stats.duplicates).toMatchObject({ count: 50, fraction: 0.05 });
    expect(stats.trainTestOverlap).toMatchObject({ count: 20, fraction: 0.1 });
    expect(stats.conflictingLabels).toMatchObject({ count: 3, fraction: 0.003 });
    expect(stats.labelIssues).toMatchObject({ fraction: 0.04, count: 40 });
  });

  it("derives class counts of a 0/1 target from its column mean when no distribution is given", () => {
    const body = loadJson("samples/tabular-drift-evidently.json");
    const stats = parseDatasetArtifact(body.dataset_artifacts as Record<string, unknown>);
    expect(stats.classCounts.all).toEqual({ "0": 17682, "1": 6318 });
    expect(stats.classPath).toBe("dataset_artifacts.statistics.describe.churned");
  });

  it("keeps NaN and Infinity (bare or as MLflow strings) so detectors can see them", () => {
    const stats = parseDatasetArtifact({ statistics: { columns: { ratio: { dtype: "float64", count: 10, mean: "NaN", max: Number.POSITIVE_INFINITY, min: "-Infinity" } } } });
    const c = stats.columns[0]!;
    expect(Number.isNaN(c.mean)).toBe(true);
    expect(c.max).toBe(Number.POSITIVE_INFINITY);
    expect(c.min).toBe(Number.NEGATIVE_INFINITY);
  });

  it("fails with a message naming the path when nothing is understood", () => {
    expect(() => parseDatasetArtifact({ statistics: { histogram: [1, 2, 3] } })).toThrow(/dataset_artifacts\.statistics: no statistics .*histogram/);
  });
});

describe("dataset statistics: legacy image statistics of the original Python client", () => {
  it("reads sample counts and per-channel means and stds per split", () => {
    const body = loadJson("samples/legacy-python-client.json");
    const stats = parseDatasetArtifact(body.dataset_artifacts as Record<string, unknown>);
    expect(stats.datasetName).toBe("tomato-leaf-field");
    expect(stats.splitRows).toEqual({ train: 1840, test: 460 });
    expect(stats.channels.train?.mean).toHaveLength(3);
    expect(stats.channels.test?.std[0]).toBeCloseTo(0.2474, 4);
    expect(stats.modality).toBe("image");
    expect(stats.shapes).toContain("legacy_image_statistics");
  });
});
