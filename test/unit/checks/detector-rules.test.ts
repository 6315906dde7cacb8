import { describe, expect, it } from "vitest";
import {
  checkLabel,
  flagged,
  flaggedNames,
  flaggedOrOverDefault,
  leadOutcome,
  lowerSeverity,
  outcomeEvidence,
  severityByStatus,
  verdictWord,
  worstSeverity,
} from "../../../nodes/checks/detector.js";
import { outcome, report } from "./outcomes.js";

describe("severity steps shared by the checks detectors", () => {
  it("lowers a severity by one band, and no lower than info", () => {
    expect(lowerSeverity("critical")).toBe("high");
    expect(lowerSeverity("high")).toBe("medium");
    expect(lowerSeverity("medium")).toBe("low");
    expect(lowerSeverity("low")).toBe("info");
    expect(lowerSeverity("info")).toBe("info");
  });

  it("takes the worst of several severities, info for none", () => {
    expect(worstSeverity(["low", "high", "medium"])).toBe("high");
    expect(worstSeverity(["info", "critical"])).toBe("critical");
    expect(worstSeverity([])).toBe("info");
  });

  it("is the upper severity when any outcome failed or crossed a default, the lower when all only warned", () => {
    expect(severityByStatus([outcome({ category: "other", status: "warn" }), outcome({ category: "other", status: "fail" })], "high", "medium")).toBe("high");
    expect(severityByStatus([outcome({ category: "other", status: "warn" }), outcome({ category: "other", status: "none" })], "high", "medium")).toBe("high");
    expect(severityByStatus([outcome({ category: "other", status: "warn" }), outcome({ category: "other", status: "warn" })], "high", "medium")).toBe("medium");
  });
});

describe("which outcomes count", () => {
  it("flags FAIL and WARN outcomes of the asked categories, never passes, errors or checks that do not apply", () => {
    const outcomes = [
      outcome({ category: "split", name: "fail" }),
      outcome({ category: "other", name: "warn", status: "warn" }),
      outcome({ category: "split", name: "pass", status: "pass" }),
      outcome({ category: "split", name: "error", status: "error" }),
      outcome({ category: "split", name: "none", status: "none", observed: 1 }),
      outcome({ category: "split", name: "n/a", notApplicable: true }),
      outcome({ category: "schema", name: "other category" }),
    ];
    expect(flagged(report(outcomes), "split", "other").map((o) => o.name)).toEqual(["fail", "warn"]);
    expect(flagged(report(outcomes), "split").map((o) => o.name)).toEqual(["fail"]);
  });

  it("adds Deepchecks checks without a condition whose number reaches the catalog default, and no other tool's", () => {
    const outcomes = [
      outcome({ category: "label_drift", name: "warned", status: "warn", observed: 0.01 }),
      outcome({ category: "label_drift", name: "at default", status: "none", observed: 0.15 }),
      outcome({ category: "label_drift", name: "below", status: "none", observed: 0.1499 }),
      outcome({ category: "label_drift", name: "no number", status: "none", observed: null }),
      outcome({ category: "label_drift", name: "evidently", tool: "evidently", status: "none", observed: 0.9 }),
      outcome({ category: "feature_drift", name: "other category", status: "none", observed: 0.9 }),
    ];
    expect(flaggedOrOverDefault(report(outcomes), "label_drift", 0.15).map((o) => o.name)).toEqual(["warned", "at default"]);
    // A check without a number never crosses a default, even one of 0.
    expect(flaggedOrOverDefault(report(outcomes), "label_drift", 0).map((o) => o.name)).toEqual(["warned", "at default", "below"]);
  });

  it("leads with the first outcome that failed, else the first, and has none for no outcomes", () => {
    const warn = outcome({ category: "other", name: "w", status: "warn" });
    const fail = outcome({ category: "other", name: "f" });
    const none = outcome({ category: "other", name: "n", status: "none" });
    expect(leadOutcome([warn, fail])?.name).toBe("f");
    expect(leadOutcome([warn, none])?.name).toBe("n");
    expect(leadOutcome([warn, { ...warn, name: "w2" }])?.name).toBe("w");
    expect(leadOutcome([])).toBeUndefined();
  });

  it("names flagged columns and flagged details once each, in order", () => {
    const outcomes = [
      outcome({ category: "new_labels", columns: ["a", "b"], details: [{ name: "c", score: 1, threshold: null, flagged: true }, { name: "d", score: 0, threshold: null, flagged: false }] }),
      outcome({ category: "new_labels", columns: ["b"], details: [{ name: "a", score: 1, threshold: null, flagged: true }, { name: "e", score: 1, threshold: null, flagged: true }] }),
    ];
    expect(flaggedNames(outcomes)).toEqual(["a", "b", "c", "e"]);
  });
});

describe("how a check is named in descriptions", () => {
  it("names the tool and the check, and says failed or warned", () => {
    expect(checkLabel(outcome({ category: "other", name: "Label Drift" }))).toBe('Deepchecks "Label Drift"');
    expect(checkLabel(outcome({ category: "other", tool: "evidently", name: "t" }))).toBe('Evidently "t"');
    expect(checkLabel(outcome({ category: "other", tool: "great_expectations", name: "t" }))).toBe('Great Expectations "t"');
    expect(checkLabel(outcome({ category: "other", tool: "tfdv", name: "t" }))).toBe('TFDV "t"');
    expect(checkLabel(outcome({ category: "other", tool: "generic", name: "missing_values" }))).toBe('Check "missing_values"');
    expect(verdictWord(outcome({ category: "other", status: "warn" }))).toBe("warned");
    expect(verdictWord(outcome({ category: "other", status: "fail" }))).toBe("failed");
    expect(verdictWord(outcome({ category: "other", status: "none" }))).toBe("failed");
  });
});

describe("the evidence of one outcome", () => {
  it("states the status, the observed number against the report's own threshold, and the numbers as fields", () => {
    const e = outcomeEvidence("CR-05", outcome({ category: "label_drift", name: "Label Drift", observed: 0.283, threshold: 0.15, report: "Train Test Validation Suite", values: { psi: 0.3 }, path: "checks_artifacts.reports[2]" }));
    expect(e).toEqual({
      rule_id: "CR-05",
      artifact: "checks_artifacts.reports[2]",
      text: 'Deepchecks "Label Drift" FAIL: 0.283 against 0.15.',
      observed: 0.283,
      threshold: 0.15,
      values: { check: "Label Drift", status: "fail", tool: "deepchecks", suite: "Train Test Validation Suite", psi: 0.3 },
    });
  });

  it("says a check ran without a condition, and which threshold is the catalog default", () => {
    const e = outcomeEvidence("CR-05", outcome({ category: "label_drift", name: "Label Drift", status: "none", observed: 0.2 }), 0.15);
    expect(e.text).toBe('Deepchecks "Label Drift" ran without a condition: 0.2 against the catalog default 0.15.');
    expect(e.threshold).toBe(0.15);
    expect(e.values).toEqual({ check: "Label Drift", status: "none", tool: "deepchecks" });
  });

  it("prefers the report's threshold to the catalog default, and says nothing of a threshold when there is none", () => {
    expect(outcomeEvidence("R", outcome({ category: "other", name: "c", status: "warn", observed: 0.2, threshold: 0.1 }), 0.15).text).toBe('Deepchecks "c" WARN: 0.2 against 0.1.');
    const bare = outcomeEvidence("R", outcome({ category: "other", name: "c", observed: 3 }));
    expect(bare.text).toBe('Deepchecks "c" FAIL: 3.');
    expect(bare.threshold).toBeNull();
  });

  it("uses the status as the observed value when there is no number, and quotes no number", () => {
    const e = outcomeEvidence("R", outcome({ category: "other", name: "c", threshold: 0.1 }));
    expect(e.text).toBe('Deepchecks "c" FAIL.');
    expect(e.observed).toBe("fail");
  });

  it("quotes shares of rows as percentages, and a domain classifier's AUC", () => {
    expect(outcomeEvidence("R", outcome({ category: "leakage", name: "m", observed: 0.4217, threshold: 0.05, share: true })).text).toBe('Deepchecks "m" FAIL: 42.17 % against 5.00 %.');
    const auc = outcomeEvidence("R", outcome({ category: "dataset_drift", name: "d", observed: 0.631, threshold: 0.25, values: { domain_classifier_auc: 0.815 } }));
    expect(auc.text).toBe('Deepchecks "d" FAIL: 0.631 against 0.25 (domain classifier AUC 0.815).');
    expect(auc.values).toMatchObject({ domain_classifier_auc: 0.815 });
  });

  it("lists up to five flagged details with their subject and score, then the condition, the declared severity and the message", () => {
    const details = [
      { name: "a", subject: "cat", score: 0.5, threshold: 0.2, flagged: true },
      { name: "skip", score: 0.9, threshold: 0.2, flagged: false },
      { name: "b", score: null, threshold: null, flagged: true },
      ...["c", "d", "e", "f"].map((name) => ({ name, score: 0.3, threshold: 0.2, flagged: true })),
    ];
    const o = outcome({ category: "schema", tool: "great_expectations", name: "expect_x", condition: "x is between 0 and 1", declaredSeverity: "critical", message: "Found  3\n  bad\trows", details });
    const e = outcomeEvidence("CR-06", o);
    expect(e.text).toMatch(/^Great Expectations "expect_x" FAIL\. Flagged: a \(cat\) 0\.5, b, c 0\.3, d 0\.3, e 0\.3\. Condition: x is between 0 and 1\. .*critical.* Found 3 bad rows$/);
    expect(e.values).toMatchObject({ declared_severity: "critical" });
  });

  it("leaves out a condition that only repeats the check's name, and clips a long message", () => {
    const e = outcomeEvidence("R", outcome({ category: "other", name: "same", condition: "same", message: "x".repeat(300) }));
    expect(e.text).not.toContain("Condition:");
    expect(e.text).toMatch(/^Deepchecks "same" FAIL\. x+…$/);
    expect(e.text.length).toBe('Deepchecks "same" FAIL. '.length + 200);
  });
});
