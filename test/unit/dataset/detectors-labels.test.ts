import { describe, expect, it } from "vitest";
import { classImbalance } from "../../../nodes/dataset/detectors/class-imbalance.js";
import { rareClass } from "../../../nodes/dataset/detectors/rare-class.js";
import { splitLabelShift } from "../../../nodes/dataset/detectors/split-label-shift.js";
import { unseenLabels } from "../../../nodes/dataset/detectors/unseen-labels.js";
import { detectOn, only } from "./detect.js";

describe("DS-01 class imbalance", () => {
  it("fires at medium for a 25:1 ratio, with the classes and ratio as evidence", () => {
    const f = only(detectOn(classImbalance, { class_distribution: { train: { a: 2500, b: 900, d: 400, c: 100 } } }));
    expect(f.id).toBe("dataset.class_imbalance");
    expect(f.severity).toBe("medium");
    expect(f.evidence[0]).toMatchObject({ rule_id: "DS-01", observed: 0.04, threshold: 0.1 });
    expect(f.evidence[0]!.values).toMatchObject({ minority_class: "c", majority_class: "a" });
    expect(f.description).toMatch(/1:25/);
  });

  it("is high when the minority is under 1 % of the rows", () => {
    expect(only(detectOn(classImbalance, { class_distribution: { a: 9950, b: 50 } })).severity).toBe("high");
  });

  it("stays quiet at a ratio just above 0.1 (hard negative)", () => {
    expect(detectOn(classImbalance, { class_distribution: { train: { a: 1000, b: 105 } } })).toEqual([]);
  });
});

describe("DS-02 rare class", () => {
  it("is high when a class has fewer train examples than CV folds", () => {
    const f = only(detectOn(rareClass, { class_distribution: { train: { a: 500, b: 300, c: 3 } } }));
    expect(f.severity).toBe("high");
    expect(f.evidence[0]).toMatchObject({ observed: 3, threshold: 5 });
  });

  it("is medium when a class appears less than once per batch of the configured size", () => {
    const f = only(detectOn(rareClass, { class_distribution: { train: { a: 980, b: 20 } } }, { batch_size: 32 }));
    expect(f.severity).toBe("medium");
    expect(f.evidence[0]!.values).toMatchObject({ batch_size: 32 });
  });

  it("stays quiet with exactly as many examples as folds and no batch size (hard negative)", () => {
    expect(detectOn(rareClass, { class_distribution: { train: { a: 980, b: 5 } } })).toEqual([]);
  });
});

describe("DS-03 unseen labels", () => {
  it("fires at high for a test label absent from train", () => {
    const f = only(detectOn(unseenLabels, { class_distribution: { train: { a: 90, b: 10 }, test: { a: 40, b: 5, c: 7 } } }));
    expect(f.severity).toBe("high");
    expect(f.evidence[0]).toMatchObject({ artifact: "dataset_artifacts.statistics.class_distribution.test", observed: 7 });
  });

  it("stays quiet when a label absent from train has zero count in test too (hard negative)", () => {
    expect(detectOn(unseenLabels, { class_distribution: { train: { a: 90, b: 10 }, test: { a: 40, b: 5, c: 0 } } })).toEqual([]);
  });
});

describe("split label shift", () => {
  it("is high when validation's class mix differs from test's (the full image-classification sample's shape)", () => {
    const f = only(
      detectOn(splitLabelShift, {
        class_distribution: { train: { a: 2500, b: 1000, c: 100 }, val: { a: 310, b: 125, c: 12 }, test: { a: 200, b: 190, c: 80 } },
      }),
    );
    expect(f.severity).toBe("high");
    expect(f.description).toMatch(/Validation does not represent test/);
    expect(f.evidence.map((e) => e.values?.from_split)).toContain("val");
  });

  it("stays quiet for stratified splits with sampling noise (hard negative)", () => {
    expect(detectOn(splitLabelShift, { class_distribution: { train: { a: 21118, b: 20882 }, val: { a: 4538, b: 4462 }, test: { a: 4511, b: 4489 } } })).toEqual([]);
  });
});
