import { describe, expect, it } from "vitest";
import { classImbalance } from "../../../nodes/dataset/detectors/class-imbalance.js";
import { missingValues } from "../../../nodes/dataset/detectors/missing-values.js";
import { rareClass } from "../../../nodes/dataset/detectors/rare-class.js";
import { smallDataset } from "../../../nodes/dataset/detectors/small-dataset.js";
import { splitSizes } from "../../../nodes/dataset/detectors/split-sizes.js";
import { unseenLabels } from "../../../nodes/dataset/detectors/unseen-labels.js";
import { featureColumns, isDeepModality, trainClassCounts } from "../../../nodes/dataset/detector.js";
import { parseDatasetArtifact } from "../../../nodes/dataset/parse.js";
import { detectOn, only } from "./detect.js";

/**
 * The class-count and row-count detectors (imbalance, rare and unseen classes, missing values, split and dataset
 * sizes) beyond their bands (thresholds.test.ts): the guards, the orderings and the numbers their evidence reports.
 */
const col = (over: Record<string, unknown> = {}) => ({ dtype: "float64", count: 1000, missing: 0, unique: 900, mean: 5, std: 2, min: 0, max: 10, ...over });

describe("the helpers the dataset detectors share", () => {
  it("take train's class counts, else the whole dataset's, else none, with their path", () => {
    const split = parseDatasetArtifact({ statistics: { class_distribution: { train: { a: 3 }, test: { a: 1 } } } });
    expect(trainClassCounts(split)).toEqual({ split: "train", path: "dataset_artifacts.statistics.class_distribution.train", counts: { a: 3 } });
    const whole = parseDatasetArtifact({ statistics: { class_distribution: { a: 3, b: 4 } } });
    expect(trainClassCounts(whole)).toEqual({ split: "all", path: "dataset_artifacts.statistics.class_distribution", counts: { a: 3, b: 4 } });
    expect(trainClassCounts(parseDatasetArtifact({ statistics: { class_distribution: { test: { a: 1, b: 90 } } } }))).toBeNull();
    expect(detectOn(classImbalance, { class_distribution: { test: { a: 1, b: 90 } } })).toEqual([]);
  });

  it("treat every column but the target as a feature, and images, text, audio and video as deep modalities", () => {
    const stats = parseDatasetArtifact({ metadata: { target: "y" }, statistics: { columns: { a: col(), y: col(), b: col() } } });
    expect(featureColumns(stats).map((c) => c.name)).toEqual(["a", "b"]);
    for (const m of ["image", "computer vision", "text", "audio", "speech", "video", "nlp"]) expect(isDeepModality(m), m).toBe(true);
    for (const m of ["tabular", "time series", null]) expect(isDeepModality(m), String(m)).toBe(false);
  });
});

describe("DS-01 class imbalance: which classes it compares", () => {
  it("finds the majority and the minority whatever order the counts come in", () => {
    const f = only(detectOn(classImbalance, { class_distribution: { train: { c: 10, b: 500, a: 1000 } } }));
    expect(f.evidence[0]).toMatchObject({ observed: 0.01, values: { minority_class: "c", minority_count: 10, majority_class: "a", majority_count: 1000, minority_share: Number((10 / 1510).toFixed(5)), classes: 3 } });
    expect(f.evidence[0]!.text).toMatch(/^minority\/majority = 0\.010 \(threshold 0\.1\); minority share 0\.66\s?% of 1,510 rows over 3 classes\.$/u);
    expect(f.description).toContain("(about 1:100)");
    // Ratio 0.01 against 0.1: strength 10, 0.55 + 0.35·tanh(9).
    expect(f.confidence).toBe(0.9);
  });

  it("says nothing when no class has rows", () => {
    expect(detectOn(classImbalance, { class_distribution: { train: { a: 0, b: 0 } } })).toEqual([]);
  });
});

describe("DS-02 rare class: fewer examples than CV folds, or less than one per batch", () => {
  it("uses the stated number of folds, 5 otherwise, the count equal to it not too few", () => {
    expect(only(detectOn(rareClass, { class_distribution: { train: { a: 500, b: 4 } } })).severity).toBe("high");
    expect(detectOn(rareClass, { class_distribution: { train: { a: 500, b: 5 } } })).toEqual([]);
    expect(only(detectOn(rareClass, { class_distribution: { train: { a: 500, b: 9 } } }, { cv_folds: 10 })).evidence[0]).toMatchObject({ observed: 9, threshold: 10, values: { classes: 1, folds: 10 } });
    expect(detectOn(rareClass, { class_distribution: { train: { a: 500, b: 10 } } }, { cv_folds: 10 })).toEqual([]);
    expect(detectOn(rareClass, { class_distribution: { train: { a: 500, b: 0 } } })).toEqual([]);
  });

  it("is medium below one example per batch on average, not at exactly one", () => {
    expect(detectOn(rareClass, { class_distribution: { train: { a: 900, b: 100 } } }, { batch_size: 10 })).toEqual([]);
    const f = only(detectOn(rareClass, { class_distribution: { train: { a: 901, b: 99 } } }, { batch_size: 10 }));
    expect(f.severity).toBe("medium");
    expect(f.evidence[0]).toMatchObject({ observed: 0.99, threshold: 1, values: { batch_size: 10, classes: 1 } });
    expect(f.evidence[0]!.text).toBe('With batch size 10, 1 class(es) appear less than once per batch on average (rarest "b": 0.99 per batch).');
    expect(f.description).toBe('"b" has as few as 99 training example(s): most training batches contain none of them.');
    expect(f.confidence).toBe(0.71);
  });

  it("reports both kinds at the more severe one, the rarest per batch by count, and a confidence from the smallest class", () => {
    const f = only(detectOn(rareClass, { class_distribution: { train: { a: 2000, b: 3, c: 40, d: 20 } } }, { batch_size: 16 }));
    expect(f.severity).toBe("high");
    expect(f.evidence).toHaveLength(2);
    expect(f.evidence[0]).toMatchObject({ observed: 3, threshold: 5, text: "1 class(es) have fewer train examples than 5 folds: b=3." });
    expect(f.evidence[1]!.text).toContain('(rarest "d": 0.16 per batch)');
    expect(f.evidence[1]!.values).toMatchObject({ classes: 2 });
    expect(f.description).toBe('"b", "c", "d" have as few as 3 training example(s): too few to stratify cross-validation or to learn reliably.');
    // 5 folds over 3 examples: 0.55 + 0.35·tanh(2/3).
    expect(f.confidence).toBe(0.75);
  });
});

describe("DS-03 unseen labels", () => {
  it("counts a label with zero train rows as unseen, across test and val, and sums its rows", () => {
    const f = only(detectOn(unseenLabels, { class_distribution: { train: { a: 90, b: 0 }, val: { a: 10, b: 2, c: 0 }, test: { a: 40, b: 5, c: 7 } } }));
    expect(f.evidence.map((e) => [e.artifact, e.text, e.observed, e.threshold])).toEqual([
      ["dataset_artifacts.statistics.class_distribution.test", '"b": 5 rows in test, 0 in train.', 5, 0],
      ["dataset_artifacts.statistics.class_distribution.test", '"c": 7 rows in test, 0 in train.', 7, 0],
      ["dataset_artifacts.statistics.class_distribution.val", '"b": 2 rows in val, 0 in train.', 2, 0],
    ]);
    expect(f.description).toMatch(/^"b", "c" appear in test and val \(14 rows\) but never in train/);
    expect(f.confidence).toBe(0.82);
  });

  it("needs train's counts, and keeps at most 10 pieces of evidence", () => {
    expect(detectOn(unseenLabels, { class_distribution: { test: { a: 4 } } })).toEqual([]);
    const test = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`n${i}`, 1]));
    expect(only(detectOn(unseenLabels, { class_distribution: { train: { a: 9 }, test } })).evidence).toHaveLength(10);
  });
});

describe("DS-04 missing values: orderings and what the finding says", () => {
  const miss = (missing: number, over: Record<string, unknown> = {}) => col({ count: 1000 - missing, missing, ...over });

  it("orders columns of one band by their missing share, and counts only the serious ones", () => {
    const f = only(detectOn(missingValues, { columns: { a: miss(100), c: miss(1), b: miss(400) } }));
    expect(f.evidence.map((e) => e.values?.column)).toEqual(["b", "a", "c"]);
    expect(f.evidence[0]).toMatchObject({ observed: 0.4, threshold: 0.05, values: { column: "b", missing: 400 } });
    expect(f.evidence[0]!.text).toMatch(/^"b": 40\.00\s?% missing \(400 rows\)\.$/u);
    expect(f.evidence[2]).toMatchObject({ threshold: 0 });
    expect(f.description).toMatch(/^2 column\(s\) have more than 1 % missing values/);
    expect(f.recommendation!.action).toMatch(/^Impute "b", "a" with statistics fitted on train only/);
    // 40 % against 5 %: 0.55 + 0.35·tanh(7).
    expect(f.confidence).toBe(0.9);
  });

  it("says how few values are missing below 1 %, and leaves out the row count it was not given", () => {
    const f = only(detectOn(missingValues, { columns: { a: miss(5), b: miss(2) } }));
    expect(f.description).toMatch(/^A few values are missing \(at most 0\.50\s?% per column\): "a" 0\.5\s?%, "b" 0\.2\s?%\.$/u);
    expect(f.recommendation!.action).toMatch(/^Impute the few missing values with/);
    const fractionOnly = only(detectOn(missingValues, { columns: { a: { dtype: "float64", missing_fraction: 0.2 } } }));
    expect(fractionOnly.evidence[0]!.text).toMatch(/^"a": 20\.00\s?% missing\.$/u);
    expect(fractionOnly.evidence[0]!.values).toEqual({ column: "a", missing: null });
  });

  it("lists five columns in the description and keeps ten pieces of evidence", () => {
    const columns = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`c${i}`, miss(100 + i)]));
    const f = only(detectOn(missingValues, { columns }));
    expect(f.evidence).toHaveLength(10);
    expect(f.description.match(/"c\d+"/g)).toHaveLength(5);
    expect(f.description).toMatch(/^12 column\(s\)/);
  });
});

describe("DS-15 split sizes and DS-16 small dataset: guards and what they report", () => {
  it("split sizes need train's rows and point at the split", () => {
    expect(detectOn(splitSizes, { splits: { test: { num_rows: 50 } } })).toEqual([]);
    const f = only(detectOn(splitSizes, { splits: { train: { num_rows: 5000 }, test: { num_rows: 50 } } }));
    expect(f.evidence[0]).toMatchObject({ rule_id: "DS-15", artifact: "dataset_artifacts.statistics.splits.test", observed: 50, threshold: 100, values: { split: "test", train_rows: 5000, standard_error: 0.0707 } });
    expect(f.description).toBe("An evaluation split is too small (or larger than train) to measure the model reliably.");
    expect(f.confidence).toBe(0.71);
    const small = only(detectOn(splitSizes, { splits: { train: { num_rows: 5000 }, val: { num_rows: 300 } } }));
    expect(small.evidence[0]).toMatchObject({ artifact: "dataset_artifacts.statistics.splits.val", observed: 300, threshold: 400 });
    expect(small.description).toMatch(/within its noise/);
  });

  it("small dataset needs a row count, and says which rule of thumb it applied", () => {
    const columns = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, { dtype: "float64" }]));
    expect(detectOn(smallDataset, { columns })).toEqual([]);
    const tabular = only(detectOn(smallDataset, { num_rows: 50, columns }));
    // 5 rows per feature against 10, stated as a heuristic: (0.55 + 0.35·tanh(1))·0.8.
    expect(tabular.confidence).toBe(0.65);
    expect(tabular.evidence[0]).toMatchObject({ rule_id: "DS-16", artifact: "dataset_artifacts.statistics", text: "5 training rows per feature (heuristic threshold 10)." });
    expect(tabular.recommendation).toMatchObject({ category: "model", effort: "medium", action: expect.stringMatching(/^Prefer a simpler, regularized model/) });
    const classes = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`c${i}`, 50]));
    const deep = only(detectOn(smallDataset, { class_distribution: { train: classes }, splits: { train: { num_rows: 500 } } }, { modality: "text" }));
    expect(deep.description).toMatch(/^Train has 500 rows for 10 classes \(50 per class\); a rule of thumb asks for at least 100\./);
    expect(deep.evidence[0]).toMatchObject({ observed: 50, threshold: 100, values: { train_rows: 500, classes: 10 } });
    expect(deep.recommendation!.action).toMatch(/^Start from a pretrained model/);
    expect(detectOn(smallDataset, { splits: { train: { num_rows: 500 } } }, { modality: "image" })).toEqual([]);
  });
});
