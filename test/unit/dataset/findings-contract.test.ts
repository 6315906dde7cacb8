import { describe, expect, it } from "vitest";
import { EvidenceSchema, FindingRecommendationSchema, FindingSchema, type Severity, SeveritySchema } from "../../../domain/result.js";
import { DATASET_DETECTORS } from "../../../nodes/dataset/catalog.js";
import type { DatasetDetector } from "../../../nodes/dataset/detector.js";
import { detectDatasetFindings } from "../../../nodes/dataset/detect.js";
import { parseDatasetArtifact } from "../../../nodes/dataset/parse.js";
import { detectOn } from "./detect.js";

/**
 * The contract every dataset detector keeps with the rest of the pipeline: for an input on which it fires, one
 * finding whose id is its catalog id, with a severity its catalog record declares, readable text, a valid
 * recommendation and evidence that names its rule. The cases reach every severity each detector declares, and a
 * detector added to the catalog without a case here fails the last test.
 */
interface Case {
  severity: Severity;
  statistics: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

const col = (over: Record<string, unknown> = {}) => ({ dtype: "float64", count: 1000, missing: 0, unique: 900, mean: 5, std: 2, min: 0, max: 10, ...over });
const channels = (mean: number[], std: number[]) => ({ mean, std });
const legacyChannels = { train: channels([0.5, 0.5, 0.5], [0.25, 0.25, 0.25]) };
const signal = (train: number, test: number) => ({ label_signal: { segment: { method: "purity", train, test, null_sd: 0.01, test_null_sd: 0.01 } } });
const timeSplit = (stated: boolean) => ({
  time_split: { column: "event_time", stated, train_min: "2025-01-01", train_max: "2025-10-01", test_min: "2025-03-01", test_max: "2025-12-31", test_before_train_end: { count: 70, fraction: 0.1 } },
});
const drift = (psi: Record<string, number>) => ({ num_rows: 100, drift: Object.fromEntries(Object.entries(psi).map(([c, p]) => [c, { kind: "numeric", psi: p, ks: 0.1 }])) });

/** Keyed by the finding id each detector must emit. */
const CASES: Record<string, Case[]> = {
  "dataset.class_imbalance": [
    { severity: "medium", statistics: { class_distribution: { train: { a: 1000, b: 99 } } } },
    { severity: "high", statistics: { class_distribution: { a: 9950, b: 50 } } },
  ],
  "dataset.rare_class": [
    { severity: "high", statistics: { class_distribution: { train: { a: 500, b: 300, c: 3 } } } },
    { severity: "medium", statistics: { class_distribution: { train: { a: 980, b: 20 } } }, metadata: { batch_size: 32 } },
  ],
  "dataset.unseen_labels": [{ severity: "high", statistics: { class_distribution: { train: { a: 90, b: 10 }, test: { a: 40, b: 5, c: 7 } } } }],
  "dataset.split_label_shift": [
    { severity: "medium", statistics: { class_distribution: { train: { a: 500, b: 500 }, test: { a: 600, b: 400 } } } },
    { severity: "high", statistics: { class_distribution: { train: { a: 500, b: 500 }, test: { a: 700, b: 300 } } } },
  ],
  "dataset.missing_values": [
    { severity: "critical", statistics: { columns: { y: col({ count: 999, missing: 1 }) } }, metadata: { target: "y" } },
    { severity: "medium", statistics: { columns: { a: col({ count: 600, missing: 400 }) } } },
    { severity: "low", statistics: { columns: { a: col({ count: 980, missing: 20 }) } } },
    { severity: "info", statistics: { columns: { a: col({ count: 995, missing: 5 }) } } },
  ],
  "dataset.constant_feature": [
    { severity: "low", statistics: { columns: { country: { dtype: "object", count: 100, unique: 1, top: "DE", top_frequency: 100 } } } },
    { severity: "info", statistics: { columns: { flag: { dtype: "object", count: 1000, unique: 3, top: "n", top_frequency: 970 } } } },
  ],
  "dataset.id_like_column": [{ severity: "medium", statistics: { columns: { customer_ref: { dtype: "object", count: 4000, unique: 4000 } } } }],
  "dataset.duplicates": [
    { severity: "low", statistics: { duplicates: { count: 20, fraction: 0.02 } } },
    { severity: "medium", statistics: { duplicates: { count: 60, fraction: 0.06 } } },
  ],
  "dataset.train_test_overlap": [
    { severity: "medium", statistics: { train_test_overlap: { count: 3, fraction: 0.006 } } },
    { severity: "high", statistics: { train_test_overlap: { count: 60, fraction: 0.12 } } },
  ],
  "dataset.conflicting_labels": [
    { severity: "medium", statistics: { conflicting_labels: { count: 4, fraction: 0.004 } } },
    { severity: "high", statistics: { conflicting_labels: { count: 126, fraction: 0.0375 } } },
  ],
  "dataset.label_noise": [
    { severity: "medium", statistics: { label_issues: 0.05 } },
    { severity: "high", statistics: { label_issues: { fraction: 0.12 } } },
  ],
  "dataset.nonfinite_features": [{ severity: "high", statistics: { columns: { x: col({ nan_count: 12 }) } } }],
  "dataset.unnormalized_inputs": [
    { severity: "medium", statistics: { channel_stats: { train: channels([123.7, 116.3, 103.5], [58.4, 57.1, 57.4]) } } },
    { severity: "info", statistics: { columns: { income: col({ std: 25000 }), ratio: col({ std: 0.09 }) } } },
  ],
  "dataset.label_predictive_feature": [{ severity: "high", statistics: { feature_label_correlation: { refund_amount: 0.93, tenure: 0.3 } }, metadata: { target: "returned" } }],
  "dataset.label_signal_split_change": [
    { severity: "medium", statistics: signal(0.5, 0.3) },
    { severity: "high", statistics: signal(0.7, 0.3) },
  ],
  "dataset.time_split_leak": [
    { severity: "medium", statistics: timeSplit(false) },
    { severity: "high", statistics: timeSplit(true) },
  ],
  "dataset.post_outcome_column": [{ severity: "medium", statistics: { columns: [{ name: "refund_status", dtype: "string", required: false }] }, metadata: { target: "returned" } }],
  "dataset.collinearity": [{ severity: "low", statistics: { correlations: [{ a: "x", b: "y", r: 0.95 }] } }],
  "dataset.split_sizes": [
    { severity: "medium", statistics: { splits: { train: { num_rows: 5000 }, test: { num_rows: 50 } } } },
    { severity: "low", statistics: { splits: { train: { num_rows: 5000 }, test: { num_rows: 300 } } } },
  ],
  "dataset.small_dataset": [{ severity: "medium", statistics: { num_rows: 50, columns: { a: col(), b: col(), c: col(), d: col(), e: col(), f: col(), g: col(), h: col(), i: col(), j: col() } } }],
  "dataset.covariate_shift": [
    { severity: "low", statistics: { channel_stats: { ...legacyChannels, test: channels([0.55, 0.5, 0.5], [0.25, 0.25, 0.25]) } } },
    { severity: "medium", statistics: { channel_stats: { ...legacyChannels, test: channels([0.6, 0.5, 0.5], [0.25, 0.25, 0.25]) } } },
    { severity: "high", statistics: { channel_stats: { ...legacyChannels, test: channels([0.65, 0.5, 0.5], [0.25, 0.25, 0.25]) } } },
  ],
  "dataset.feature_drift": [
    { severity: "low", statistics: drift({ a: 0.12, b: 0.03 }) },
    { severity: "medium", statistics: drift({ a: 0.3, b: 0.03, c: 0.01 }) },
    { severity: "high", statistics: drift({ a: 0.3, b: 0.03 }) },
  ],
};

const nonEmpty = (s: string | undefined) => expect(s?.trim().length ?? 0).toBeGreaterThan(0);

function detectorOf(id: string): DatasetDetector {
  const d = DATASET_DETECTORS.find((x) => x.info.id === id);
  if (!d) throw new Error(`no detector in the catalog emits ${id}`);
  return d;
}

describe("dataset detectors: the catalog records", () => {
  it("give every detector a distinct dataset.* id, a DS/CR rule, a title, a threshold, a basis and valid severities", () => {
    const ids = DATASET_DETECTORS.map((d) => d.info.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { info } of DATASET_DETECTORS) {
      expect(info.id).toMatch(/^dataset\.[a-z]+(_[a-z]+)*$/);
      expect(info.rule).toMatch(/^(DS|CR)-\d{2}$/);
      for (const text of [info.title, info.threshold, info.basis]) nonEmpty(text);
      expect(info.severities.length).toBeGreaterThan(0);
      expect(new Set(info.severities).size).toBe(info.severities.length);
      for (const s of info.severities) expect(SeveritySchema.safeParse(s).success, `${info.id}: severity "${s}"`).toBe(true);
    }
  });
});

describe("dataset detectors: the findings contract", () => {
  for (const [id, cases] of Object.entries(CASES)) {
    for (const c of cases) {
      it(`${id} at ${c.severity}: one finding, its own id, a declared severity, text, recommendation and evidence`, () => {
        const detector = detectorOf(id);
        const findings = detectOn(detector, c.statistics, c.metadata);
        expect(findings).toHaveLength(1);
        const f = findings[0]!;
        expect(() => FindingSchema.parse(f)).not.toThrow();
        expect(f.id).toBe(detector.info.id);
        expect(f.severity).toBe(c.severity);
        expect(detector.info.severities).toContain(f.severity);
        expect(f.source).toBe("detector");
        expect(f.confidence).toBeGreaterThan(0);
        expect(f.confidence).toBeLessThanOrEqual(0.95);
        nonEmpty(f.title);
        nonEmpty(f.description);
        expect(f.recommendation).not.toBeNull();
        expect(() => FindingRecommendationSchema.parse(f.recommendation)).not.toThrow();
        nonEmpty(f.recommendation!.action);
        nonEmpty(f.recommendation!.rationale);
        expect(f.evidence.length).toBeGreaterThan(0);
        for (const e of f.evidence) {
          expect(() => EvidenceSchema.parse(e)).not.toThrow();
          expect(e.rule_id).toBe(detector.info.rule);
          nonEmpty(e.artifact);
          expect(e.artifact).toMatch(/^dataset_artifacts\.statistics/);
          nonEmpty(e.text);
        }
      });
    }
  }

  it("has cases for every detector of the catalog, reaching every severity each declares", () => {
    for (const { info } of DATASET_DETECTORS) {
      const reached = new Set((CASES[info.id] ?? []).map((c) => c.severity));
      expect([...reached].sort(), info.id).toEqual([...info.severities].sort());
    }
    expect(Object.keys(CASES).sort()).toEqual(DATASET_DETECTORS.map((d) => d.info.id).sort());
  });

  it("runs every detector over the statistics and keeps each one's finding (the catalog as the analyzer runs it)", () => {
    for (const [id, cases] of Object.entries(CASES)) {
      const c = cases[0]!;
      const all = detectDatasetFindings(parseDatasetArtifact({ metadata: c.metadata ?? {}, statistics: c.statistics }));
      expect(all.map((f) => f.id), id).toContain(id);
    }
  });
});

describe("dataset detectors: a healthy dataset", () => {
  it("gives no finding from any detector: balanced stratified splits, complete varied columns, no shift, no leakage", () => {
    const feature = (mean: number, std: number) => col({ count: 42_000, unique: 30_000, mean, std, min: mean - 3 * std, max: mean + 3 * std, top_frequency: 3 });
    const statistics = {
      splits: { train: { num_rows: 42_000 }, val: { num_rows: 9000 }, test: { num_rows: 9000 } },
      class_distribution: { train: { yes: 21_000, no: 21_000 }, val: { yes: 4500, no: 4500 }, test: { yes: 4510, no: 4490 } },
      columns: { age: feature(40, 12), income: feature(50, 20), tenure: feature(5, 3), label: { dtype: "object", count: 42_000, unique: 2, top: "yes", top_frequency: 21_000 } },
      duplicates: { count: 0, fraction: 0 },
      train_test_overlap: { count: 0, fraction: 0 },
      conflicting_labels: { count: 0, fraction: 0 },
      label_issues: { count: 100, fraction: 0.002 },
      correlations: [{ a: "age", b: "tenure", r: 0.4 }],
      label_signal: { age: { method: "auc", train: 0.3, test: 0.29, null_sd: 0.01, test_null_sd: 0.01 } },
      drift: { age: { kind: "numeric", psi: 0.01, ks: 0.02 }, income: { kind: "numeric", psi: 0.02, ks: 0.03 } },
      time_split: { column: "event_time", stated: true, train_max: "2025-09-30", test_min: "2025-10-01", test_before_train_end: { count: 0, fraction: 0 } },
    };
    const stats = parseDatasetArtifact({ metadata: { target: "label", batch_size: 64 }, statistics });
    expect(detectDatasetFindings(stats)).toEqual([]);
    const images = parseDatasetArtifact({
      metadata: { modality: "image" },
      statistics: { splits: { train: { num_rows: 5000 }, test: { num_rows: 1000 } }, class_distribution: { train: { cat: 2500, dog: 2500 }, test: { cat: 500, dog: 500 } }, channel_stats: { train: { mean: [0.5, 0.45, 0.4], std: [0.25, 0.24, 0.26] }, test: { mean: [0.5, 0.45, 0.41], std: [0.25, 0.24, 0.26] } } },
    });
    expect(detectDatasetFindings(images)).toEqual([]);
  });
});
