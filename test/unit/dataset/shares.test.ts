import { describe, expect, it } from "vitest";
import { conflictingLabels } from "../../../nodes/dataset/detectors/conflicting-labels.js";
import { duplicates } from "../../../nodes/dataset/detectors/duplicates.js";
import { labelNoise } from "../../../nodes/dataset/detectors/label-noise.js";
import { trainTestOverlap } from "../../../nodes/dataset/detectors/train-test-overlap.js";
import { shareBand, shareEvidence } from "../../../nodes/dataset/shares.js";
import { detectOn, only } from "./detect.js";

/**
 * The count-or-share rule behind duplicates, overlap, conflicting labels and label noise (shares.ts): its bands,
 * the evidence it writes, and what it does with a count whose share is unknown.
 */
const bands = { low: 0.01, high: 0.05, lowSeverity: "low", highSeverity: "medium" } as const;

describe("shareBand", () => {
  it("gives the upper band above high, the lower band above low, nothing at or below low", () => {
    expect(shareBand(0.0501, bands)).toEqual({ severity: "medium", threshold: 0.05 });
    expect(shareBand(0.05, bands)).toEqual({ severity: "low", threshold: 0.01 });
    expect(shareBand(0.0101, bands)).toEqual({ severity: "low", threshold: 0.01 });
    expect(shareBand(0.01, bands)).toBeNull();
  });
});

describe("shareEvidence", () => {
  it("states the rows and the share against the threshold, and keeps both as values", () => {
    const e = shareEvidence("DS-07", { count: 37, fraction: 0.0030042, path: "p.duplicates" }, "duplicate rows", 0.01);
    expect(e).toMatchObject({ rule_id: "DS-07", artifact: "p.duplicates", observed: 0.003, threshold: 0.01, values: { count: 37, fraction: 0.0030042 } });
    expect(e.text).toMatch(/^duplicate rows: 37 rows, 0\.30\s?% \(threshold 1\.0\s?%\)\.$/u);
  });

  it("states only what it knows: the count without a share (observed is the count), the share without a count", () => {
    const countOnly = shareEvidence("DS-08", { count: 1234, fraction: null, path: "p" }, "shared rows", 0);
    expect(countOnly).toMatchObject({ observed: 1234, values: { count: 1234, fraction: null } });
    expect(countOnly.text).toMatch(/^shared rows: 1,234 rows \(threshold 0\.0\s?%\)\.$/u);
    const shareOnly = shareEvidence("DS-10", { count: null, fraction: 0.05, path: "p" }, "label issues", 0.033);
    expect(shareOnly).toMatchObject({ observed: 0.05 });
    expect(shareOnly.text).toMatch(/^label issues: 5\.00\s?% \(threshold 3\.3\s?%\)\.$/u);
  });
});

describe("shareDetector", () => {
  it("writes the share with two decimals under 10 %, one from 10 % on, and reports the band's threshold", () => {
    const small = only(detectOn(duplicates, { duplicates: { count: 45, fraction: 0.0375 } }));
    expect(small.description).toMatch(/^3\.75\s?% of the rows are exact duplicates\./u);
    expect(small.evidence[0]).toMatchObject({ rule_id: "DS-07", artifact: "dataset_artifacts.statistics.duplicates", threshold: 0.01, observed: 0.0375 });
    const large = only(detectOn(trainTestOverlap, { train_test_overlap: { count: 60, fraction: 0.12 } }));
    expect(large.description).toMatch(/^12\.0\s?% of the evaluation rows also appear in the training data/u);
    expect(large.evidence[0]).toMatchObject({ threshold: 0.05 });
    expect(only(detectOn(trainTestOverlap, { train_test_overlap: { count: 5, fraction: 0.01 } })).evidence[0]).toMatchObject({ threshold: 0 });
    expect(only(detectOn(labelNoise, { label_issues: 0.1 })).description).toMatch(/^10\.0\s?% of the rows/u);
  });

  it("scores confidence from the share against the band, lowered where a benign cause is plausible; 0.6 for a bare count", () => {
    // 20 % against 5 %: 0.55 + 0.35·tanh(3).
    expect(only(detectOn(duplicates, { duplicates: { count: 200, fraction: 0.2 } })).confidence).toBe(0.9);
    // 20 % against 10 %, label noise may be benign: (0.55 + 0.35·tanh(1))·0.8.
    expect(only(detectOn(labelNoise, { label_issues: { count: 200, fraction: 0.2 } })).confidence).toBe(0.65);
    expect(only(detectOn(conflictingLabels, { conflicting_labels: 7 })).confidence).toBe(0.6);
  });

  it("puts a bare count in the lower band only when any share counts (a lower threshold of 0)", () => {
    const f = only(detectOn(conflictingLabels, { conflicting_labels: 7 }));
    expect(f.severity).toBe("medium");
    expect(f.description).toMatch(/^7 of the rows share identical features/);
    expect(f.evidence[0]).toMatchObject({ observed: 7, threshold: 0, values: { count: 7, fraction: null } });
    expect(detectOn(conflictingLabels, { conflicting_labels: 0 })).toEqual([]);
    expect(detectOn(duplicates, { duplicates: 120 })).toEqual([]);
    expect(detectOn(duplicates, { num_rows: 100 })).toEqual([]);
  });
});
