import { describe, expect, it } from "vitest";
import { labelPredictiveFeature } from "../../../nodes/dataset/detectors/label-predictive-feature.js";
import { labelSignalSplitChange } from "../../../nodes/dataset/detectors/label-signal-split-change.js";
import { timeSplitLeak } from "../../../nodes/dataset/detectors/time-split-leak.js";
import { detectOn, only } from "./detect.js";

const column = (dtype: string, extra: Record<string, unknown> = {}) => ({ dtype, count: 2000, missing: 0, unique: 40, ...extra });

describe("DS-13 from the client's label signal", () => {
  it("flags a feature whose train score reaches 0.8, naming it and no other", () => {
    const f = only(
      detectOn(
        labelPredictiveFeature,
        {
          columns: { status: column("string", { unique: 2 }), income: column("float64", { unique: 1990 }), label: column("int64", { unique: 2 }) },
          label_signal: { status: { method: "purity", train: 0.8, null_sd: 0.02 }, income: { method: "auc", train: 0.79, null_sd: 0.02 } },
        },
        { target: "label" },
      ),
    );
    expect(f.evidence.map((e) => e.values?.column)).toEqual(["status"]);
    expect(f.evidence[0]).toMatchObject({ artifact: "dataset_artifacts.statistics.columns.status", threshold: 0.8 });
  });

  it("stays quiet at 0.79 for an ordinary feature (hard negative: strong but legitimate)", () => {
    expect(detectOn(labelPredictiveFeature, { columns: { income: column("float64") }, label_signal: { income: { method: "auc", train: 0.79, null_sd: 0.01 } } })).toEqual([]);
  });

  it("keeps a score a report states for the column over the client's", () => {
    const stats = { columns: { status: column("string", { pps: 0.2 }) }, label_signal: { status: { method: "purity", train: 0.95, null_sd: 0.01 } } };
    expect(detectOn(labelPredictiveFeature, stats)).toEqual([]);
  });

  it("holds a column rising along the rows to the identifier threshold, above its noise", () => {
    const id = { record_id: column("int64", { unique: 1500 }) };
    const fires = only(detectOn(labelPredictiveFeature, { columns: id, label_signal: { record_id: { method: "auc", train: 0.07, null_sd: 0.02, monotonic: true } } }));
    expect(fires.evidence[0]).toMatchObject({ threshold: 0.05 });
    // Just inside the threshold but within 3 SD of a useless feature's score: noise.
    expect(detectOn(labelPredictiveFeature, { columns: id, label_signal: { record_id: { method: "auc", train: 0.07, null_sd: 0.025, monotonic: true } } })).toEqual([]);
    // The same score on a column that is no identifier.
    const amount = { amount: column("int64", { unique: 1500 }) };
    expect(detectOn(labelPredictiveFeature, { columns: amount, label_signal: { amount: { method: "auc", train: 0.07, null_sd: 0.02, monotonic: false } } })).toEqual([]);
    expect(detectOn(labelPredictiveFeature, { columns: amount, label_signal: { amount: { method: "auc", train: 0.07, null_sd: 0.02, monotonic: true } } })).toHaveLength(1);
  });

  it("treats an integer column unique per row as an identifier", () => {
    const stats = { columns: { ref: column("int64", { unique: 2000 }) }, label_signal: { ref: { method: "auc", train: 0.3, null_sd: 0.02 } } };
    expect(only(detectOn(labelPredictiveFeature, stats)).evidence[0]).toMatchObject({ threshold: 0.05 });
  });
});

describe("DS-17 label signal change between train and test", () => {
  const signal = (train: number, test: number, testNullSd = 0.02) => ({ label_signal: { segment: { method: "purity", train, test, null_sd: 0.01, test_null_sd: testNullSd } } });

  it("is medium at a drop of 0.2 and high at 0.4", () => {
    const medium = only(detectOn(labelSignalSplitChange, signal(0.5, 0.3)));
    expect(medium).toMatchObject({ id: "dataset.label_signal_split_change", severity: "medium" });
    expect(medium.evidence[0]).toMatchObject({ observed: 0.2, threshold: 0.2, values: { column: "segment", train: 0.5, test: 0.3 } });
    expect(only(detectOn(labelSignalSplitChange, signal(0.7, 0.3))).severity).toBe("high");
  });

  it("stays quiet just under 0.2, and when the drop is within 3 SD of the test score's noise", () => {
    expect(detectOn(labelSignalSplitChange, signal(0.5, 0.31))).toEqual([]);
    expect(detectOn(labelSignalSplitChange, signal(0.5, 0.25, 0.09))).toEqual([]);
  });

  it("needs a test score", () => {
    expect(detectOn(labelSignalSplitChange, { label_signal: { segment: { method: "purity", train: 0.9, null_sd: 0.01 } } })).toEqual([]);
  });
});

describe("DS-18 time split leak", () => {
  const split = (fraction: number, stated: boolean) => ({
    time_split: { column: "event_time", stated, train_min: "2025-01-01", train_max: "2025-10-01", test_min: "2025-03-01", test_max: "2025-12-31", test_before_train_end: { count: Math.round(fraction * 700), fraction } },
  });

  it("is high on the stated time column and medium on one found in the files", () => {
    const stated = only(detectOn(timeSplitLeak, split(0.15, true)));
    expect(stated).toMatchObject({ severity: "high" });
    expect(stated.evidence[0]).toMatchObject({ artifact: "dataset_artifacts.statistics.time_split", observed: 0.15, values: { column: "event_time", stated: true } });
    expect(stated.description).toMatch(/15\.0 % of the test rows .* "event_time"/);
    expect(only(detectOn(timeSplitLeak, split(0.15, false))).severity).toBe("medium");
  });

  it("stays quiet for a clean split by time", () => {
    expect(detectOn(timeSplitLeak, split(0, true))).toEqual([]);
  });
});
