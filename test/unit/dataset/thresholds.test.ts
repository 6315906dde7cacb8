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

  it("is high just under a 1 % minority share when 0.1/K is the lower bound (K = 20 gives 0.5 %)", () => {
    const many = (minor: number) => ({ class_distribution: { ...Object.fromEntries(Array.from({ length: 19 }, (_, i) => [`c${i}`, i === 0 ? 2000 : 100])), m: minor } });
    // Total 3,800 + m: m = 38 is exactly 1 %, 39 above it (ratio to the 2,000 majority stays under 0.1).
    expect(severity(classImbalance, many(38))).toBe("high");
    expect(severity(classImbalance, many(39))).toBe("medium");
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

  it("is medium just under 1 % of train and quiet at it; medium for a test split just larger than train", () => {
    expect(severity(splitSizes, splits(100_000, 999))).toBe("medium");
    expect(severity(splitSizes, splits(100_000, 1000))).toBeNull();
    expect(severity(splitSizes, splits(1000, 1001))).toBe("medium");
    expect(severity(splitSizes, splits(1000, 1000))).toBeNull();
  });
});

describe("DS-16 small dataset: train rows per feature < 10 (tabular), per class < 100 (deep modalities)", () => {
  const columns = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, { dtype: "float64", count: 100 }]));

  it("fires just under 10 rows per feature and not at 10", () => {
    expect(severity(smallDataset, { num_rows: 99, columns })).toBe("medium");
    expect(severity(smallDataset, { num_rows: 100, columns })).toBeNull();
  });

  it("fires just under 100 rows per class for images and not at 100", () => {
    const classes = (n: number) => ({ class_distribution: { train: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`c${i}`, n])) }, splits: { train: { num_rows: n * 10 - 1 } } });
    expect(severity(smallDataset, classes(100), { modality: "image" })).toBe("medium");
    expect(severity(smallDataset, { ...classes(100), splits: { train: { num_rows: 1000 } } }, { modality: "image" })).toBeNull();
  });
});
