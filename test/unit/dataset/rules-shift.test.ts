import { describe, expect, it } from "vitest";
import { channelShift, covariateShift } from "../../../nodes/dataset/detectors/covariate-shift.js";
import { featureDrift } from "../../../nodes/dataset/detectors/feature-drift.js";
import { labelSignalSplitChange } from "../../../nodes/dataset/detectors/label-signal-split-change.js";
import { cramersV, splitLabelShift } from "../../../nodes/dataset/detectors/split-label-shift.js";
import { timeSplitLeak } from "../../../nodes/dataset/detectors/time-split-leak.js";
import type { ChannelStats } from "../../../nodes/dataset/model.js";
import { detectOn, only } from "./detect.js";

/**
 * The shift detectors between splits (image channels, per-feature drift, class mix, label signal, time order):
 * each band's edge just inside and just outside, and the numbers their evidence reports.
 */
const ch = (mean: number[], std: number[]) => ({ mean, std });
/** Channel statistics as the parser leaves them, for channelShift. */
const cs = (mean: number[], std: number[]): ChannelStats => ({ mean, std, path: "p" });

describe("CR-03 covariate shift: channelShift", () => {
  it("takes the largest |Δmean| over the pooled std, the largest std ratio either way, and the mean differences", () => {
    const s = channelShift("train", cs([0.5, 0.4], [0.2, 0.25]), "test", cs([0.6, 0.3], [0.2, 0.2]))!;
    expect(s).toMatchObject({ from: "train", to: "test" });
    expect(s.d).toBeCloseTo(0.5, 9);
    expect(s.stdRatio).toBeCloseTo(1.25, 9);
    expect(s.meanDiff[0]).toBeCloseTo(0.1, 9);
    expect(s.meanDiff[1]).toBeCloseTo(-0.1, 9);
    expect(channelShift("train", cs([0], [0.5]), "test", cs([0], [0.25]))!.stdRatio).toBe(2);
  });

  it("compares only the channels both splits have, skips a zero pooled std or std, and refuses nothing or non-finite input", () => {
    expect(channelShift("train", cs([0, 0, 5], [1, 1, 1]), "test", cs([0.2, 0], [1, 1]))!.meanDiff).toHaveLength(2);
    expect(channelShift("train", cs([0.5], [0]), "test", cs([0.5], [0]))).toMatchObject({ d: 0, stdRatio: 1 });
    expect(channelShift("train", cs([0], [0]), "test", cs([0.3], [0.5]))).toMatchObject({ stdRatio: 1 });
    expect(channelShift("train", cs([0], [0.5]), "test", cs([0.3], [0]))).toMatchObject({ stdRatio: 1 });
    expect(channelShift("train", cs([], []), "test", cs([0.5], [0.2]))).toBeNull();
    expect(channelShift("train", cs([Number.NaN], [1]), "test", cs([0.5], [1]))).toBeNull();
  });
});

describe("CR-03 covariate shift: Cohen's d ≥ 0.1 / 0.3 / 0.5, std ratio ≥ 1.1 / 1.25 / 1.5", () => {
  const shifted = (mean: number, std = 1) => ({ channel_stats: { train: ch([0, 0], [1, 1]), test: ch([mean, 0], [std, 1]) } });
  const severity = (statistics: Record<string, unknown>) => detectOn(covariateShift, statistics)[0]?.severity ?? null;

  it("steps at d = 0.1, 0.3 and 0.5, each edge inclusive", () => {
    expect(severity(shifted(0.0999))).toBeNull();
    expect(severity(shifted(0.1))).toBe("low");
    expect(severity(shifted(0.2999))).toBe("low");
    expect(severity(shifted(0.3))).toBe("medium");
    expect(severity(shifted(0.4999))).toBe("medium");
    expect(severity(shifted(0.5))).toBe("high");
  });

  it("steps at std ratios 1.1, 1.25 and 1.5, each edge inclusive", () => {
    expect(severity(shifted(0, 1.0999))).toBeNull();
    expect(severity(shifted(0, 1.1))).toBe("low");
    expect(severity(shifted(0, 1.2499))).toBe("low");
    expect(severity(shifted(0, 1.25))).toBe("medium");
    expect(severity(shifted(0, 1.4999))).toBe("medium");
    expect(severity(shifted(0, 1.5))).toBe("high");
  });

  it("reports the effect sizes, the direction of the change and a confidence that grows with d", () => {
    const f = only(detectOn(covariateShift, { channel_stats: { train: ch([0, 0], [1, 1]), test: ch([0.6, 0.3], [1, 1.2]) } }));
    expect(f.description).toMatch(/^test images are brighter than train \(channel means differ by up to 0\.600, effect size d = 0\.\d\d\) and their spread differs up to 1\.20×/);
    expect(f.evidence).toHaveLength(1);
    expect(f.evidence[0]).toMatchObject({ rule_id: "CR-03", artifact: "dataset_artifacts.statistics.channel_stats.test", threshold: 0.3, values: { split: "test", std_ratio: 1.2 } });
    expect(f.evidence[0]!.observed).toBeCloseTo(0.6 / Math.sqrt((1 + 1) / 2), 4);
    expect(f.evidence[0]!.text).toContain("mean difference per channel [0.600, 0.300]");
    expect(f.evidence[0]!.text).toContain("max std ratio 1.200");
    // strength max(d / 0.3, (ratio − 1) / 0.25) = 2: 0.55 + 0.35·tanh(1).
    expect(f.confidence).toBe(0.82);
    expect(only(detectOn(covariateShift, { channel_stats: { train: ch([0, 0], [1, 1]), test: ch([-0.2, -0.1], [1, 1]) } })).description).toMatch(/^test images are darker than train/);
    const mixed = { channel_stats: { train: ch([0, 0], [1, 1]), test: ch([0.2, -0.2], [1, 1]) } };
    expect(only(detectOn(covariateShift, mixed)).description).toMatch(/^test images are different in colour than train/);
    // A channel that did not move is neither brighter nor darker.
    for (const still of [[0.2, 0], [-0.2, 0]]) {
      const f2 = only(detectOn(covariateShift, { channel_stats: { train: ch([0, 0], [1, 1]), test: ch(still, [1, 1]) } }));
      expect(f2.description).toMatch(/^test images are different in colour than train/);
    }
    // A std ratio alone: strength (1.5 − 1) / 0.25 = 2.
    expect(only(detectOn(covariateShift, shifted(0, 1.5))).confidence).toBe(0.82);
  });

  it("leads with the most severe split, then the larger d, and keeps evidence for each shifted split", () => {
    const f = only(detectOn(covariateShift, { channel_stats: { train: ch([0], [1]), val: ch([0.2], [1]), test: ch([0.6], [1]) } }));
    expect(f.severity).toBe("high");
    expect(f.description).toMatch(/^test images/);
    expect(f.evidence.map((e) => e.values?.split)).toEqual(["test", "val"]);
    const sameBand = only(detectOn(covariateShift, { channel_stats: { train: ch([0], [1]), val: ch([0.31], [1]), test: ch([0.35], [1]) } }));
    expect(sameBand.evidence.map((e) => e.values?.split)).toEqual(["test", "val"]);
    expect(sameBand.description).toMatch(/^test images/);
  });

  it("needs train channel statistics, and ignores an unshifted split", () => {
    expect(detectOn(covariateShift, { channel_stats: { val: ch([0], [1]), test: ch([0.9], [1]) } })).toEqual([]);
    const f = only(detectOn(covariateShift, { channel_stats: { train: ch([0], [1]), val: ch([0], [1]), test: ch([0.2], [1]) } }));
    expect(f.evidence.map((e) => e.values?.split)).toEqual(["test"]);
  });
});

describe("CR-03 feature drift: PSI ≥ 0.25 significant, ≥ 0.1 moderate; high from half of the compared features", () => {
  const drift = (psi: Record<string, number>, extra: Record<string, unknown> = {}) => ({
    num_rows: 100,
    drift: Object.fromEntries(Object.entries(psi).map(([c, p]) => [c, { kind: "numeric", psi: p, ks: 0.1, ...extra }])),
  });
  const severity = (psi: Record<string, number>) => detectOn(featureDrift, drift(psi))[0]?.severity ?? null;

  it("counts PSI 0.25 as significant and 0.1 as moderate, just under each as the band below", () => {
    expect(severity({ a: 0.25, b: 0, c: 0 })).toBe("medium");
    expect(only(detectOn(featureDrift, drift({ a: 0.25, b: 0, c: 0 }))).evidence.map((e) => e.threshold)).toEqual([0.25]);
    expect(severity({ a: 0.2499, b: 0, c: 0 })).toBe("low");
    expect(severity({ a: 0.1, b: 0 })).toBe("low");
    expect(severity({ a: 0.0999, b: 0 })).toBeNull();
  });

  it("is high from exactly half of the compared features drifting significantly, medium just under half", () => {
    expect(severity({ a: 0.3, b: 0.3, c: 0, d: 0 })).toBe("high");
    expect(severity({ a: 0.3, b: 0.01, c: 0 })).toBe("medium");
    expect(severity({ a: 0.3, b: 0.12, c: 0 })).toBe("medium");
  });

  it("says how many features shift, lists significant ones before moderate ones by PSI, and reports KS or total variation", () => {
    const f = only(detectOn(featureDrift, { num_rows: 100, drift: { m: { kind: "numeric", psi: 0.15, ks: 0.2 }, s: { kind: "categorical", psi: 0.4, total_variation: 0.35 }, t: { kind: "numeric", psi: 0.3 }, q: { kind: "numeric", psi: 0.01 }, r: { psi: 0.02 } } }));
    expect(f).toMatchObject({ severity: "medium", title: "Feature distributions differ between train and test" });
    expect(f.description).toMatch(/^2 of 5 compared features shift significantly from train to test \("s", "t"; largest PSI 0\.40 on "s"\)/);
    expect(f.evidence.map((e) => [e.values?.column, e.threshold])).toEqual([["s", 0.25], ["t", 0.25], ["m", 0.1]]);
    expect(f.evidence[0]).toMatchObject({ observed: 0.4, values: { column: "s", total_variation: 0.35 } });
    expect(f.evidence[0]!.text).toBe('"s": PSI 0.400, total variation 0.350 (moderate ≥ 0.1, significant ≥ 0.25).');
    expect(f.evidence[2]!.text).toContain('"m": PSI 0.150, KS 0.200');
    expect(f.evidence[1]!.text).toMatch(/^"t": PSI 0\.300 \(/);
    expect(f.evidence[1]!.values).toEqual({ column: "t" });
    // strength 0.4 against 0.25: 0.55 + 0.35·tanh(0.6).
    expect(f.confidence).toBe(0.74);
    expect(f.recommendation!.action).toContain('"s", "t", "m"');
  });

  it("names the moderate features when none is significant, and titles a dataset-wide shift", () => {
    const low = only(detectOn(featureDrift, drift({ a: 0.12, b: 0.2, c: 0 })));
    expect(low.description).toMatch(/^2 of 3 compared features shift moderately from train to test \("b", "a"; largest PSI 0\.20 on "b"\)/);
    expect(only(detectOn(featureDrift, drift({ a: 0.5, b: 0 }))).title).toBe("Most features drift between train and test");
  });

  it("keeps at most 10 pieces of evidence", () => {
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}`, 0.3 + i / 100]));
    expect(only(detectOn(featureDrift, drift(many))).evidence).toHaveLength(10);
  });
});

describe("CR-05 split label shift: Cramér's V ≥ 0.1 medium, ≥ 0.15 high", () => {
  const mix = (q: number) => ({ class_distribution: { train: { a: 500, b: 500 }, test: { a: q, b: 1000 - q } } });
  const severity = (statistics: Record<string, unknown>) => detectOn(splitLabelShift, statistics)[0]?.severity ?? null;

  it("computes V of two splits' counts: 0 for the same mix, 1 for disjoint labels, labels missing on one side as 0", () => {
    expect(cramersV({ a: 10, b: 30 }, { a: 100, b: 300 })).toBeCloseTo(0, 12);
    expect(cramersV({ a: 50 }, { b: 20 })).toBeCloseTo(1, 12);
    expect(cramersV({ a: 500, b: 500 }, { a: 600, b: 400 })).toBeCloseTo(0.1005, 4);
    expect(cramersV({ a: 10, b: 10, c: 0 }, { a: 10, b: 10, c: 0 })).toBe(0);
    expect(cramersV({ a: 10, b: 10 }, { a: 20 })).toBeCloseTo(Math.sqrt(1 / 3), 12);
    expect(cramersV({ a: 10 }, { a: 20 })).toBe(0);
    expect(cramersV({}, { a: 20, b: 3 })).toBe(0);
    expect(cramersV({ a: 20, b: 3 }, { a: 0, b: 0 })).toBe(0);
  });

  it("is medium just above 0.1, quiet just under, high just above 0.15, medium just under", () => {
    expect(severity(mix(599))).toBeNull();
    expect(severity(mix(600))).toBe("medium");
    expect(severity(mix(648))).toBe("medium");
    expect(severity(mix(649))).toBe("high");
  });

  it("leads with train vs test when validation agrees with test, with the label whose share moved most", () => {
    const f = only(detectOn(splitLabelShift, { class_distribution: { train: { a: 500, b: 400, c: 100 }, test: { a: 400, b: 350, c: 250 } } }));
    expect(f.description).toMatch(/^The class mix of test differs from train \(Cramér's V 0\.\d\d; "c" is 10\.0\s?% of train but 25\.0\s?% of test\)\.$/u);
    expect(f.evidence).toHaveLength(1);
    expect(f.evidence[0]).toMatchObject({ rule_id: "CR-05", artifact: "dataset_artifacts.statistics.class_distribution", threshold: 0.15, values: { from_split: "train", to_split: "test", label: "c", share_from: 0.1, share_to: 0.25 } });
    expect(f.evidence[0]!.text).toMatch(/^train vs test: Cramér's V 0\.\d{3} \(medium ≥ 0\.1, high ≥ 0\.15\); largest share change "c" 10\.0\s?% → 25\.0\s?%\.$/u);
  });

  it("takes its severity from the worst pair, leads with val vs test when that pair shifted, and reports each shifted pair", () => {
    const stats = { class_distribution: { train: { a: 500, b: 500 }, test: { a: 600, b: 400 }, val: { a: 700, b: 300 } } };
    const f = only(detectOn(splitLabelShift, stats));
    expect(f.severity).toBe("high");
    expect(f.description).toMatch(/^The class mix of test differs from val/);
    expect(f.description).toMatch(/Validation does not represent test/);
    expect(f.evidence.map((e) => [e.values?.from_split, e.values?.to_split, e.threshold])).toEqual([["val", "test", 0.1], ["train", "test", 0.1], ["train", "val", 0.15]]);
    // From the worst pair (train vs val, V 0.204 against 0.1), not the lead: 0.55 + 0.35·tanh(1.04).
    expect(f.confidence).toBe(0.82);
    const trainVal = only(detectOn(splitLabelShift, { class_distribution: { train: { a: 500, b: 500 }, val: { a: 600, b: 400 } } }));
    expect(trainVal).toMatchObject({ severity: "medium", confidence: 0.55 });
    expect(trainVal.description).not.toMatch(/Validation/);
    // Two classes always move by the same share: the first label is named.
    expect(trainVal.evidence[0]!.values).toMatchObject({ label: "a", share_from: 0.5, share_to: 0.6 });
  });

  it("names the label whose share moved most, wherever it is in the counts", () => {
    const f = only(detectOn(splitLabelShift, { class_distribution: { train: { a: 500, b: 400, c: 100 }, test: { a: 300, b: 450, c: 250 } } }));
    expect(f.evidence[0]!.values).toMatchObject({ label: "a", share_from: 0.5, share_to: 0.3 });
  });

  it("takes the worst pair wherever it comes in the order of pairs", () => {
    const f = only(detectOn(splitLabelShift, { class_distribution: { train: { a: 500, b: 500 }, test: { a: 700, b: 300 }, val: { a: 600, b: 400 } } }));
    expect(f.severity).toBe("high");
    expect(f.evidence.map((e) => e.threshold)).toEqual([0.1, 0.15, 0.1]);
  });
});

describe("DS-17 label signal split change: drop ≥ 0.2 medium, ≥ 0.4 high", () => {
  const signal = (entries: Record<string, [number, number | null]>, testNullSd: number | null = 0.01) => ({
    label_signal: Object.fromEntries(Object.entries(entries).map(([c, [train, test]]) => [c, { method: "purity", train, test, null_sd: 0.01, test_null_sd: testNullSd }])),
  });

  it("is high at a drop of 0.4 and medium just under it; the noise guard is strict", () => {
    expect(only(detectOn(labelSignalSplitChange, signal({ s: [0.69, 0.3] }))).severity).toBe("medium");
    expect(only(detectOn(labelSignalSplitChange, signal({ s: [0.7, 0.3] }))).severity).toBe("high");
    // 0.3 drop against 3 × 0.1 noise: not above it.
    expect(detectOn(labelSignalSplitChange, signal({ s: [0.6, 0.3] }, 0.1))).toEqual([]);
    expect(detectOn(labelSignalSplitChange, signal({ s: [0.6, 0.3] }, 0.099))).toHaveLength(1);
    expect(detectOn(labelSignalSplitChange, signal({ s: [0.6, 0.3] }, null))).toHaveLength(1);
  });

  it("orders the features by drop, says how far the top one fell, and leaves out the target", () => {
    const f = only(detectOn(labelSignalSplitChange, signal({ a: [0.5, 0.3], b: [0.9, 0.4], label: [1, 0.1] }), { target: "label" }));
    expect(f.evidence.map((e) => e.values?.column)).toEqual(["b", "a"]);
    expect(f.description).toMatch(/^"b", "a" predict the label far better in train than in test \(largest drop 0\.50: 0\.90 → 0\.40\)/);
    expect(f.evidence[0]).toMatchObject({ rule_id: "DS-17", observed: 0.5, threshold: 0.2, values: { column: "b", train: 0.9, test: 0.4, method: "purity" } });
    expect(f.evidence[0]!.text).toBe('"b": label score 0.900 in train, 0.400 in test (drop 0.500; threshold 0.2).');
    // drop 0.5 against 0.2, a benign cause possible: (0.55 + 0.35·tanh(1.5))·0.8.
    expect(f.confidence).toBe(0.69);
    expect(f.recommendation!.action).toMatch(/^Find out how "b", "a" are filled in each split: drop them/);
    const one = only(detectOn(labelSignalSplitChange, signal({ a: [0.5, 0.3] })));
    expect(one.description).toMatch(/^"a" predicts the label/);
    expect(one.recommendation!.action).toMatch(/^Find out how "a" is filled in each split: drop it/);
  });
});

describe("DS-18 time split leak", () => {
  const split = (over: Record<string, unknown>) => ({
    time_split: { column: "event_time", stated: true, train_max: "2025-10-01", test_min: "2025-03-01", test_before_train_end: { count: 70, fraction: 0.1 }, ...over },
  });

  it("reports the share, the dates and the column, with a lower confidence when the column was not the stated split", () => {
    const f = only(detectOn(timeSplitLeak, split({})));
    expect(f.title).toBe("Test rows dated before the end of training");
    expect(f.description).toMatch(/^10\.0\s?% of the test rows are dated before the latest training row on "event_time" \(test starts 2025-03-01, training ends 2025-10-01\)/u);
    expect(f.evidence[0]).toMatchObject({ rule_id: "DS-18", observed: 0.1, threshold: 0, values: { count: 70, fraction: 0.1, column: "event_time", stated: true } });
    expect(f.evidence[0]!.text).toMatch(/^test rows dated before the last train row \(2025-10-01\) on "event_time": 70 rows, 10\.00\s?%/u);
    expect(f.confidence).toBe(0.58);
    expect(only(detectOn(timeSplitLeak, split({ stated: false }))).confidence).toBe(0.47);
    expect(f.recommendation!.action).toContain('"event_time"');
  });

  it("writes ? for dates it was not given, and fires on the smallest positive share", () => {
    const f = only(detectOn(timeSplitLeak, split({ train_max: null, test_min: null, test_before_train_end: { count: 1, fraction: 0.0001 } })));
    expect(f.description).toContain("(test starts ?, training ends ?)");
    expect(f.evidence[0]!.text).toContain("(?)");
  });
});
