import { describe, expect, it } from "vitest";
import type { DatasetDetector } from "../../../nodes/dataset/detector.js";
import { classImbalance } from "../../../nodes/dataset/detectors/class-imbalance.js";
import { conflictingLabels } from "../../../nodes/dataset/detectors/conflicting-labels.js";
import { duplicates } from "../../../nodes/dataset/detectors/duplicates.js";
import { labelNoise } from "../../../nodes/dataset/detectors/label-noise.js";
import { missingValues } from "../../../nodes/dataset/detectors/missing-values.js";
import { smallDataset } from "../../../nodes/dataset/detectors/small-dataset.js";
import { splitSizes } from "../../../nodes/dataset/detectors/split-sizes.js";
import { trainTestOverlap } from "../../../nodes/dataset/detectors/train-test-overlap.js";
import { detectOn } from "./detect.js";

/**
 * Every threshold of the dataset detectors, pinned at its edge: the case just inside gives the band's severity,
 * the case just outside the next band's (or nothing). Moving a threshold, or turning a strict comparison into a
 * loose one, fails here rather than only in recorded outputs.
 */
const severity = (detector: DatasetDetector, statistics: Record<string, unknown>, metadata: Record<string, unknown> = {}) =>
  detectOn(detector, statistics, metadata)[0]?.severity ?? null;

describe("DS-01 class imbalance: minority/majority < 0.1, extreme minority share < 1 % or < 0.1/K", () => {
  it("fires just under a ratio of 0.1 and not at it", () => {
    expect(severity(classImbalance, { class_distribution: { a: 1000, b: 99 } })).toBe("medium");
    expect(severity(classImbalance, { class_distribution: { a: 1000, b: 100 } })).toBeNull();
  });

  it("is high just under a minority share of 0.1/K (two classes: 5 %), medium at it", () => {
    expect(severity(classImbalance, { class_distribution: { a: 1901, b: 100 } })).toBe("high");
    expect(severity(classImbalance, { class_distribution: { a: 1900, b: 100 } })).toBe("medium");
  });

  it("is high just under a 1 % minority share when 0.1/K is the lower bound (K = 20 gives 0.5 %), medium at 1 %", () => {
    const many = (minor: number) => ({ class_distribution: { ...Object.fromEntries(Array.from({ length: 19 }, (_, i) => [`c${i}`, i === 0 ? 2061 : 100])), m: minor } });
    // Total 3,861 + m: m = 39 is exactly 1 % (39 / 3,900), 38 just under (the ratio to the majority stays under 0.1).
    expect(severity(classImbalance, many(38))).toBe("high");
    expect(severity(classImbalance, many(39))).toBe("medium");
  });

  it("ignores classes with no rows: the smallest class present is the minority", () => {
    expect(severity(classImbalance, { class_distribution: { a: 1000, b: 500, c: 0 } })).toBeNull();
    const [f] = detectOn(classImbalance, { class_distribution: { train: { a: 1000, b: 50, c: 0 } } });
    expect(f!.evidence[0]!.values).toMatchObject({ minority_class: "b", majority_class: "a", classes: 2 });
    expect(f!.description).toMatch(/^In train, the smallest class "b" has 50 examples against 1,000 for "a"/);
    expect(detectOn(classImbalance, { class_distribution: { a: 1000, b: 50 } })[0]!.description).toMatch(/^In the dataset,/);
  });

  it("grows more confident the further the ratio is below 0.1", () => {
    const confidence = (minor: number) => detectOn(classImbalance, { class_distribution: { a: 10_000, b: minor } })[0]!.confidence;
    expect(confidence(100)).toBeGreaterThan(confidence(900));
  });
});

describe("DS-04 missing values: > 5 % medium, > 1 % low, else info", () => {
  const column = (missing: number) => ({ columns: { a: { dtype: "float64", count: 100_000 - missing, missing, unique: 900, mean: 5, std: 2, min: 0, max: 10 } } });

  it("is medium just above 5 % and low at 5 %", () => {
    expect(severity(missingValues, column(5001))).toBe("medium");
    expect(severity(missingValues, column(5000))).toBe("low");
  });

  it("is low just above 1 % and info at 1 %", () => {
    expect(severity(missingValues, column(1001))).toBe("low");
    expect(severity(missingValues, column(1000))).toBe("info");
  });

  it("takes its severity and lead from the worst column, whatever the column order, and says what each band means", () => {
    const col = (missing: number) => ({ dtype: "float64", count: 1000 - missing, missing, unique: 900, mean: 5, std: 2, min: 0, max: 10 });
    const [f] = detectOn(missingValues, { columns: { a: col(20), b: col(400), c: col(1) } });
    expect(f).toMatchObject({ severity: "medium", title: "Columns with many missing values" });
    expect(f!.evidence.map((e) => e.values?.column)).toEqual(["b", "a", "c"]);
    expect(f!.description).toMatch(/^2 column\(s\) have more than 1 % missing values: "b" 40\.0\s?%, "a" 2\.0\s?%, "c" 0\.1\s?%\.$/u);
    const [few] = detectOn(missingValues, { columns: { a: col(1), b: col(0) } });
    expect(few).toMatchObject({ severity: "info", title: "A few missing values", confidence: 0.9 });
    expect(few!.evidence).toHaveLength(1);
    const [label] = detectOn(missingValues, { columns: { y: col(1), a: col(400) } }, { target: "y" });
    expect(label).toMatchObject({ severity: "critical", title: "Labels are missing" });
    expect(label!.description).toMatch(/^The label column "y" has 0\.10\s?% missing values/u);
    expect(label!.recommendation!.action).toMatch(/never impute a label/);
  });

  it("is more confident the further a column is past its band's threshold", () => {
    const confidence = (missing: number) => detectOn(missingValues, column(missing))[0]!.confidence;
    expect(confidence(40_000)).toBeGreaterThan(confidence(6000));
  });
});

describe("share detectors: each band's lower edge is exclusive", () => {
  const cases: Array<[string, DatasetDetector, string, { low: number; high: number }, [string | null, string, string]]> = [
    ["DS-07 duplicates", duplicates, "duplicates", { low: 0.01, high: 0.05 }, [null, "low", "medium"]],
    ["DS-10 label noise", labelNoise, "label_issues", { low: 0.033, high: 0.1 }, [null, "medium", "high"]],
    ["DS-09 conflicting labels", conflictingLabels, "conflicting_labels", { low: 0, high: 0.03 }, [null, "medium", "high"]],
    ["DS-08 train/test overlap", trainTestOverlap, "train_test_overlap", { low: 0, high: 0.05 }, [null, "medium", "high"]],
  ];
  const EPS = 1e-4;
  for (const [name, detector, key, { low, high }, [below, between, above]] of cases) {
    it(`${name}: ${between} just above ${low}, ${above} just above ${high}`, () => {
      const at = (fraction: number) => severity(detector, { [key]: { count: 10, fraction } });
      expect(at(low)).toBe(below);
      expect(at(low + EPS)).toBe(between);
      expect(at(high)).toBe(between);
      expect(at(high + EPS)).toBe(above);
    });
  }
});

describe("DS-15 split sizes: < 100 rows or < 1 % of train or larger than train → medium, < 400 rows → low", () => {
  const splits = (train: number, test: number) => ({ splits: { train: { num_rows: train }, test: { num_rows: test } } });

  it("is medium just under 100 rows, low at 100 and just under 400, quiet at 400", () => {
    expect(severity(splitSizes, splits(5000, 99))).toBe("medium");
    expect(severity(splitSizes, splits(5000, 100))).toBe("low");
    expect(severity(splitSizes, splits(5000, 399))).toBe("low");
    expect(severity(splitSizes, splits(5000, 400))).toBeNull();
  });

  it("says whether a split is unusable or only small", () => {
    const [unusable] = detectOn(splitSizes, splits(5000, 99));
    expect(unusable).toMatchObject({ title: "Evaluation split has an unusable size" });
    expect(unusable!.evidence[0]!.text).toBe("test: 99 rows, 1.98 % of train; thresholds ≥ 100 rows and ≥ 1 % of train.");
    const [larger] = detectOn(splitSizes, splits(1000, 1001));
    expect(larger!.evidence[0]!.text).toMatch(/^test: larger than train \(1,000\)/);
    const [small] = detectOn(splitSizes, splits(5000, 100));
    expect(small).toMatchObject({ title: "Evaluation split is small" });
    expect(small!.evidence[0]!.text).toMatch(/standard error of ±5\.0 points/);
    // A medium split is not downgraded by a small one after it.
    const both = detectOn(splitSizes, { splits: { train: { num_rows: 5000 }, val: { num_rows: 50 }, test: { num_rows: 300 } } })[0]!;
    expect(both.severity).toBe("medium");
    expect(both.evidence.map((e) => e.values?.split)).toEqual(["val", "test"]);
  });

  it("is medium just under 1 % of train and quiet at it; medium for a test split just larger than train", () => {
    expect(severity(splitSizes, splits(100_000, 999))).toBe("medium");
    expect(severity(splitSizes, splits(100_000, 1000))).toBeNull();
    expect(severity(splitSizes, splits(1000, 1001))).toBe("medium");
    expect(severity(splitSizes, splits(1000, 1000))).toBeNull();
  });
});

describe("DS-16 small dataset: train rows per feature < 10 (tabular), per class < 100 (deep modalities)", () => {
  const columns = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, { dtype: "float64", count: 100 }]));

  it("fires just under 10 rows per feature and not at 10; the label is no feature", () => {
    expect(severity(smallDataset, { num_rows: 99, columns })).toBe("medium");
    expect(severity(smallDataset, { num_rows: 100, columns })).toBeNull();
    expect(severity(smallDataset, { num_rows: 95, columns }, { target: "f0" })).toBeNull();
    const [f] = detectOn(smallDataset, { num_rows: 50, columns });
    expect(f!.evidence[0]).toMatchObject({ observed: 5, threshold: 10, values: { train_rows: 50, features: 10 } });
    expect(f!.description).toMatch(/^Train has 50 rows for 10 features \(5 per feature\)/);
    expect(detectOn(smallDataset, { num_rows: 20, columns })[0]!.confidence).toBeGreaterThan(f!.confidence);
  });

  it("fires just under 100 rows per class for images and not at 100", () => {
    const classes = (n: number) => ({ class_distribution: { train: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`c${i}`, n])) }, splits: { train: { num_rows: n * 10 - 1 } } });
    expect(severity(smallDataset, classes(100), { modality: "image" })).toBe("medium");
    expect(severity(smallDataset, { ...classes(100), splits: { train: { num_rows: 1000 } } }, { modality: "image" })).toBeNull();
  });
});
