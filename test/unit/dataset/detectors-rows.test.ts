import { describe, expect, it } from "vitest";
import { conflictingLabels } from "../../../nodes/dataset/detectors/conflicting-labels.js";
import { covariateShift } from "../../../nodes/dataset/detectors/covariate-shift.js";
import { duplicates } from "../../../nodes/dataset/detectors/duplicates.js";
import { labelNoise } from "../../../nodes/dataset/detectors/label-noise.js";
import { smallDataset } from "../../../nodes/dataset/detectors/small-dataset.js";
import { splitSizes } from "../../../nodes/dataset/detectors/split-sizes.js";
import { trainTestOverlap } from "../../../nodes/dataset/detectors/train-test-overlap.js";
import { detectOn, only } from "./detect.js";

const splits = (train: number, val?: number, test?: number) => ({
  splits: { train: { num_rows: train }, ...(val ? { val: { num_rows: val } } : {}), ...(test ? { test: { num_rows: test } } : {}) },
});

describe("DS-07 duplicates", () => {
  it("is medium above 5 % and low above 1 %", () => {
    expect(only(detectOn(duplicates, { ...splits(1000), duplicates: 60 })).severity).toBe("medium");
    expect(only(detectOn(duplicates, { duplicates: { count: 20, fraction: 0.02 } })).severity).toBe("low");
  });

  it("stays quiet at 0.3 % (the full image sample's 37 rows) (hard negative)", () => {
    expect(detectOn(duplicates, { duplicates: { count: 37, fraction: 0.00302 } })).toEqual([]);
  });
});

describe("DS-08 train/test overlap", () => {
  it("is high above 5 % of the evaluation split", () => {
    const f = only(detectOn(trainTestOverlap, { ...splits(49474, undefined, 12368), train_test_overlap: 5216 }));
    expect(f.severity).toBe("high");
    expect(f.evidence[0]!.observed).toBeCloseTo(0.4217, 4);
  });

  it("is medium for any smaller overlap", () => {
    expect(only(detectOn(trainTestOverlap, { ...splits(1000, undefined, 500), train_test_overlap: 3 })).severity).toBe("medium");
  });

  it("stays quiet for zero overlap (hard negative)", () => {
    expect(detectOn(trainTestOverlap, { train_test_overlap: 0 })).toEqual([]);
  });
});

describe("DS-09 conflicting labels and DS-10 label noise", () => {
  it("conflicting labels: high above 3 %, medium for any", () => {
    expect(only(detectOn(conflictingLabels, { conflicting_labels: { count: 126, fraction: 0.0375 } })).severity).toBe("high");
    expect(only(detectOn(conflictingLabels, { ...splits(1000), conflicting_labels: 4 })).severity).toBe("medium");
    expect(detectOn(conflictingLabels, { conflicting_labels: 0 })).toEqual([]);
  });

  it("label noise: medium above 3.3 %, high above 10 %, quiet at 3 % (hard negative)", () => {
    expect(only(detectOn(labelNoise, { label_issues: 0.05 })).severity).toBe("medium");
    expect(only(detectOn(labelNoise, { label_issues: { fraction: 0.12 } })).severity).toBe("high");
    expect(detectOn(labelNoise, { label_issues: 0.03 })).toEqual([]);
  });
});

describe("DS-15 split sizes", () => {
  it("is medium for a test split under 100 rows or larger than train", () => {
    expect(only(detectOn(splitSizes, splits(5000, 1000, 50))).severity).toBe("medium");
    expect(only(detectOn(splitSizes, splits(500, undefined, 900))).severity).toBe("medium");
  });

  it("is low when validation is too small to resolve a few points (SE > 2.5 pp)", () => {
    const f = only(detectOn(splitSizes, splits(5000, 300, 1000)));
    expect(f.severity).toBe("low");
    expect(f.evidence[0]!.values?.standard_error).toBeCloseTo(0.0289, 3);
  });

  it("stays quiet for a 70/15/15 split of 60,000 rows (hard negative)", () => {
    expect(detectOn(splitSizes, splits(42000, 9000, 9000))).toEqual([]);
  });
});

describe("DS-16 small dataset", () => {
  it("is medium for under 10 rows per feature (tabular) or 100 per class (images)", () => {
    const columns = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}`, { dtype: "float64", count: 150 }]));
    expect(only(detectOn(smallDataset, { num_rows: 150, columns })).severity).toBe("medium");
    const classes = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`c${i}`, 50]));
    expect(only(detectOn(smallDataset, { class_distribution: { train: classes } }, { modality: "image" })).description).toMatch(/50 per class/);
  });

  it("stays quiet for 42,000 rows and 13 columns (hard negative)", () => {
    const columns = Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`f${i}`, { dtype: "float64", count: 42000 }]));
    expect(detectOn(smallDataset, { ...splits(42000), columns })).toEqual([]);
  });
});

describe("covariate shift from channel statistics", () => {
  const legacy = { num_train_samples: 1840, train_mean: [0.464, 0.526, 0.386], train_std: [0.184, 0.163, 0.194], num_test_samples: 460, test_mean: [0.537, 0.591, 0.423], test_std: [0.247, 0.229, 0.259] };

  it("is medium for the legacy sample's lab-vs-field shift (d ≈ 0.34, std ratio ≈ 1.4)", () => {
    const f = only(detectOn(covariateShift, legacy));
    expect(f.severity).toBe("medium");
    expect(f.description).toMatch(/test images are brighter than train/);
    expect(f.evidence[0]!.observed).toBeGreaterThan(0.3);
  });

  it("is low for a mild shift and quiet when validation matches train (hard negative)", () => {
    const channel_stats = {
      train: { mean: [0.5472, 0.5011, 0.4386], std: [0.2519, 0.2463, 0.2571] },
      val: { mean: [0.5468, 0.5017, 0.4379], std: [0.2522, 0.2458, 0.2566] },
    };
    expect(detectOn(covariateShift, { channel_stats })).toEqual([]);
    const mild = { ...channel_stats, test: { mean: [0.5071, 0.4694, 0.4162], std: [0.2437, 0.2391, 0.2502] } };
    expect(only(detectOn(covariateShift, { channel_stats: mild })).severity).toBe("low");
  });
});

describe("share detectors with only a count", () => {
  it("say how many rows when the split sizes are unknown", () => {
    const f = detectOn(trainTestOverlap, { train_test_overlap: 12 })[0]!;
    expect(f.severity).toBe("medium");
    expect(f.description).toMatch(/^12 of the evaluation rows also appear/);
  });
});
