import { describe, expect, it } from "vitest";
import { coverageGap } from "../../../nodes/checks/detectors/coverage-gap.js";
import { modelEvalFailed } from "../../../nodes/checks/detectors/model-eval-failed.js";
import { reportDataMismatch } from "../../../nodes/checks/detectors/report-data-mismatch.js";
import type { CheckOutcome, ChecksReport, RowCount } from "../../../nodes/checks/model.js";
import { only } from "./build.js";
import { outcome, report } from "./outcomes.js";

describe("CR-09 coverage gap: each kind of gap alone", () => {
  const gap = (outcomes: CheckOutcome[], fields: Partial<ChecksReport> = {}) => coverageGap.detect(report(outcomes, fields));

  it("stays quiet when every check ran and applies", () => {
    expect(gap([outcome({ category: "other" }), outcome({ category: "other", status: "pass" })])).toEqual([]);
  });

  it("reports checks that errored or were skipped, each name once", () => {
    const f = only(gap([outcome({ category: "other", name: "A", status: "error", message: "boom" }), outcome({ category: "other", name: "A", status: "error", message: "boom" }), outcome({ category: "other", name: "B", status: "skipped", message: "no model" })]));
    expect(f.description).toContain('2 check(s) could not run: "A", "B".');
    expect(f.description).not.toMatch(/apply|Suites|part\(s\)/);
    expect(f.evidence.map((e) => e.text)).toEqual(['Deepchecks "A" errored: boom', 'Deepchecks "A" errored: boom', 'Deepchecks "B" was skipped: no model']);
    expect(f.recommendation?.action).toMatch(/errored/);
    expect(f.recommendation?.action).not.toMatch(/suite/);
    expect(f.confidence).toBe(0.9);
  });

  it("notes checks that do not apply, with the tool's reason, and never as errors", () => {
    const na = (name: string) => outcome({ category: "other", name, status: "error", notApplicable: true, message: "Check is irrelevant for regression tasks." });
    const one = only(gap([na("Label Property Outliers")]));
    expect(one.description).toMatch(/^"Label Property Outliers" does not apply/);
    expect(one.description).toContain("(Check is irrelevant for regression tasks)");
    expect(one.description).not.toMatch(/could not run|Suites|part\(s\)/);
    expect(one.evidence[0]!.text).toBe('Deepchecks "Label Property Outliers" does not apply: Check is irrelevant for regression tasks.');
    expect(one.recommendation?.action).not.toMatch(/errored|suite/);
    expect(only(gap([na("A"), na("B")])).description).toMatch(/^"A", "B" do not apply to this task/);
    // Only the reason's closing period goes.
    const reason = outcome({ category: "other", name: "C", notApplicable: true, message: "Needs e.g. a model." });
    expect(only(gap([reason])).description).toContain("(Needs e.g. a model)");
  });

  it("names suites that were switched off, and asks to run them", () => {
    const f = only(gap([], { suitesSkipped: ["model_evaluation", "data_integrity"] }));
    expect(f.description).toContain("model evaluation, data integrity;");
    expect(f.description).not.toMatch(/could not run|apply|part\(s\)/);
    expect(f.evidence.map((e) => [e.artifact, e.observed])).toEqual([["checks_artifacts.config.model_evaluation", false], ["checks_artifacts.config.data_integrity", false]]);
    expect(f.evidence[0]!.text).toContain('"model_evaluation"');
    expect(f.evidence[0]!.text).toContain("config.model_evaluation = false");
    expect(f.recommendation?.action).toContain("model evaluation and data integrity suite(s)");
    expect(f.recommendation?.action).not.toMatch(/errored/);
  });

  it("counts parts of the artifact it could not read", () => {
    const f = only(gap([], { unreadable: [{ path: "checks_artifacts.reports[1]", reason: "not a report" }, { path: "checks_artifacts.reports[2]", reason: "empty" }] }));
    expect(f.description).toMatch(/^2 part\(s\) /);
    const both = only(gap([outcome({ category: "other", name: "A", status: "error" })], { unreadable: [{ path: "p", reason: "r" }] }));
    expect(both.description).toMatch(/^1 check\(s\) could not run: "A"\. 1 part\(s\) /);
    expect(f.evidence.map((e) => e.artifact)).toEqual(["checks_artifacts.reports[1]", "checks_artifacts.reports[2]"]);
    expect(f.evidence[0]!.text).toContain("not a report");
  });

  it("keeps at most ten pieces of evidence", () => {
    const errored = Array.from({ length: 12 }, (_, i) => outcome({ category: "other", name: `c${i}`, status: "error" }));
    expect(only(gap(errored)).evidence).toHaveLength(10);
  });
});

describe("CR-10 report/data mismatch", () => {
  const rows = (role: RowCount["role"], n: number, source: string): RowCount => ({ role, rows: n, source });
  const mismatch = (fields: Partial<ChecksReport>, outcomes: CheckOutcome[] = []) => reportDataMismatch.detect(report(outcomes, fields));

  it("fires when a split's row counts differ by more than 1 %, not at exactly 1 %", () => {
    expect(mismatch({ rowCounts: [rows("train", 1000, "a"), rows("train", 990, "b")] })).toEqual([]);
    const f = only(mismatch({ rowCounts: [rows("train", 1000, "a"), rows("train", 989, "b")] }));
    expect(f.evidence).toEqual([{ rule_id: "CR-10", artifact: "b", text: "train rows: 1,000 at a but 989 at b (1.1 % apart, tolerance 1 %).", observed: 989, threshold: 1000 }]);
    expect(f.description).toContain("train rows: 1,000 at a but 989 at b (1.1 % apart, tolerance 1 %).");
    expect(f.severity).toBe("medium");
    expect(f.confidence).toBe(0.57);
  });

  it("compares each report with the first of the same role only, never train with test", () => {
    expect(mismatch({ rowCounts: [rows("train", 500, "a"), rows("test", 1000, "b"), rows("batch", 2000, "c")] })).toEqual([]);
    const f = only(mismatch({ rowCounts: [rows("test", 100, "a"), rows("test", 100, "b"), rows("test", 200, "c")] }));
    expect(f.evidence.map((e) => e.text)).toEqual(["test rows: 100 at a but 200 at c (50.0 % apart, tolerance 1 %)."]);
  });

  it("compares dataset names without case or punctuation", () => {
    expect(mismatch({ reportDatasetName: "Credit_Default", requestDatasetName: "creditdefault" })).toEqual([]);
    expect(mismatch({ reportDatasetName: "credit-default", requestDatasetName: null })).toEqual([]);
    const f = only(mismatch({ reportDatasetName: "credit-default", requestDatasetName: "orders" }));
    expect(f.evidence[0]).toMatchObject({ rule_id: "CR-10", artifact: "checks_artifacts.dataset_name", observed: "credit-default", threshold: "orders" });
    expect(f.evidence[0]!.text).toMatch(/"credit-default".*"orders"/);
    const both = only(mismatch({ reportDatasetName: "credit-default", requestDatasetName: "orders", rowCounts: [rows("test", 100, "a"), rows("test", 200, "b")] }));
    expect(both.description).toContain('"orders". test rows: 100 at a but 200 at b');
  });

  it("flags Evidently drift columns the validated table lacks, each once; not other tools' or other checks' columns", () => {
    const table = { source: "ge.table_columns", columns: ["a", "b"], complete: true };
    const drift = (tool: CheckOutcome["tool"], columns: string[], category: CheckOutcome["category"] = "feature_drift") => outcome({ category, tool, columns });
    const f = only(mismatch({ columnSets: [{ source: "partial", columns: [], complete: false }, table] }, [drift("evidently", ["a", "zip"]), drift("evidently", ["zip", "x"])]));
    expect(f.evidence).toMatchObject([{ rule_id: "CR-10", artifact: "ge.table_columns", observed: "zip, x" }]);
    expect(f.evidence[0]!.text).toContain('"zip", "x"');
    expect(mismatch({ columnSets: [table] }, [drift("deepchecks", ["zip"]), drift("evidently", ["zip"], "integrity")])).toEqual([]);
    expect(mismatch({ columnSets: [{ ...table, complete: false }] }, [drift("evidently", ["zip"])])).toEqual([]);
  });
});

describe("CR-08 model evaluation failed", () => {
  const check = (name: string, status: CheckOutcome["status"] = "fail", fields: Partial<CheckOutcome> = {}) => outcome({ category: "model_eval", name, status, ...fields });

  it("is low when evaluation checks only warned", () => {
    const f = only(modelEvalFailed.detect(report([check("Roc Report", "warn")])));
    expect(f.severity).toBe("low");
    expect(f.description).toMatch(/^1 model-evaluation check\(s\) .*; Deepchecks "Roc Report" warned\.$/);
  });

  it("leads with a failed baseline or AUC check over other failures, with its condition and message", () => {
    const f = only(modelEvalFailed.detect(report([check("Weak Segments Performance"), check("Roc Report", "warn"), check("Simple Model Comparison", "fail", { condition: "gain > 0.1", message: "gain 0.02" })])));
    expect(f.severity).toBe("high");
    expect(f.description).toMatch(/^3 model-evaluation check\(s\)/);
    expect(f.description).toContain('Deepchecks "Simple Model Comparison" failed on "gain > 0.1": gain 0.02.');
    expect(f.evidence).toHaveLength(3);
    expect(f.confidence).toBe(0.71);
  });

  it("is medium and leads with the first failure when none is severe; a warned severe check does not count", () => {
    const f = only(modelEvalFailed.detect(report([check("Roc Report", "warn"), check("Train Test Performance")])));
    expect(f.severity).toBe("medium");
    expect(f.description).toMatch(/; Deepchecks "Train Test Performance" failed\.$/);
    expect(only(modelEvalFailed.detect(report(Array.from({ length: 11 }, (_, i) => check(`c${i}`))))).evidence).toHaveLength(10);
  });
});
