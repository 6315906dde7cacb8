import { describe, expect, it } from "vitest";
import { datasetDrift } from "../../../nodes/checks/detectors/dataset-drift.js";
import { featureDrift } from "../../../nodes/checks/detectors/feature-drift.js";
import { labelDrift } from "../../../nodes/checks/detectors/label-drift.js";
import { predictionDrift } from "../../../nodes/checks/detectors/prediction-drift.js";
import { shortcutRisk } from "../../../nodes/checks/detectors/shortcut-risk.js";
import type { CheckDetail, CheckOutcome } from "../../../nodes/checks/model.js";
import { only } from "./build.js";
import { outcome, report } from "./outcomes.js";

const detail = (name: string, score: number | null, flagged: boolean, extra: Partial<CheckDetail> = {}): CheckDetail => ({ name, score, threshold: 0.2, flagged, ...extra });
const run = (detector: typeof featureDrift, ...outcomes: CheckOutcome[]) => detector.detect(report(outcomes));

describe("CR-03 feature drift: severity", () => {
  // Evidently per-column drift: each column one outcome.
  const column = (name: string, status: CheckOutcome["status"], fields: Partial<CheckOutcome> = {}) =>
    outcome({ category: "feature_drift", tool: "evidently", name: `ValueDrift(${name})`, columns: [name], status, observed: status === "pass" ? 0.05 : 0.3, threshold: 0.2, ...fields });

  it("is high past half the features drifted, medium at exactly half", () => {
    const half = only(run(featureDrift, column("a", "fail"), column("b", "fail"), column("c", "pass"), column("d", "pass")));
    expect(half.severity).toBe("medium");
    expect(half.description).toContain("2 of 4 features drifted (share 0.5)");
    expect(half.evidence[0]).toMatchObject({ observed: 0.5, threshold: 0.5, values: { drifted: 2, assessed: 4, important_drifted: null } });
    const single = only(run(featureDrift, column("a", "fail"), column("b", "pass"), column("c", "pass"), column("d", "pass")));
    expect(single.evidence[0]!.text).toBe('1 of 4 features drifted: "a" 0.3 (threshold 0.2).');
    const most = only(run(featureDrift, column("a", "fail"), column("b", "fail"), column("c", "fail"), column("d", "pass")));
    expect(most.severity).toBe("high");
    expect(most.evidence[0]).toMatchObject({ observed: 0.75 });
  });

  it("is low when drift only warned, and says so; medium once any drift check failed", () => {
    const warned = only(run(featureDrift, column("a", "warn"), column("b", "warn"), column("c", "warn"), column("d", "pass")));
    expect(warned.severity).toBe("low");
    expect(warned.description).toMatch(/warning/i);
    const mixed = only(run(featureDrift, column("a", "warn"), column("b", "fail"), column("c", "pass"), column("d", "pass")));
    expect(mixed.severity).toBe("medium");
    expect(mixed.description).not.toMatch(/warning/i);
    expect(mixed.title).not.toBe(warned.title);
  });

  it("is high when a drifted feature is among the three most important, medium when it is only the fourth", () => {
    const ranked = (drifted: string) =>
      outcome({
        category: "feature_drift",
        name: "Feature Drift",
        observed: 0.3,
        threshold: 0.2,
        details: ["a", "b", "c", "d", "e", "f", "g"].map((n, i) => detail(n, n === drifted ? 0.3 : 0.05, n === drifted, { importance: [0.1, 0.4, 0.3, 0.05, 0.15, 0, 0][i] })),
      });
    // Importance order: b 0.4, c 0.3, e 0.15, a 0.1, d 0.05.
    const third = only(run(featureDrift, ranked("e")));
    expect(third.severity).toBe("high");
    expect(third.description).toContain('Among the most important features: "e".');
    expect(third.evidence[0]!.values).toMatchObject({ important_drifted: "e" });
    const two = ranked("e");
    two.details[1]!.flagged = true;
    expect(only(run(featureDrift, two)).evidence[0]!.values).toMatchObject({ important_drifted: "b, e" });
    const fourth = only(run(featureDrift, ranked("a")));
    expect(fourth.severity).toBe("medium");
    expect(fourth.description).not.toContain("Among the most important");
  });

  it("counts a dataset-level check's flagged columns as failed drift when no feature check ran", () => {
    const table = outcome({ category: "dataset_drift", tool: "evidently", name: "DataDriftTable", observed: 0.25, threshold: 0.5, status: "pass", path: "checks_artifacts.reports[1]", details: [detail("a", 0.3, true), detail("b", 0.1, false), detail("c", 0.1, false), detail("d", null, false)] });
    // Neither another category's flagged details nor a dataset-level check that flags nothing is a source.
    const integrity = outcome({ category: "integrity", status: "pass", observed: 0.9, path: "checks_artifacts.reports[2]", details: [detail("z", 0.9, true)] });
    const calm = outcome({ category: "dataset_drift", tool: "evidently", status: "pass", observed: 0.8, threshold: 0.5, path: "checks_artifacts.reports[3]" });
    const f = only(run(featureDrift, table, integrity, calm));
    expect(f.severity).toBe("medium");
    // The column without a score is not assessed.
    expect(f.description).toContain('1 of 3 features drifted (share 0.333): "a" 0.3 (threshold 0.2)');
    expect(f.evidence.map((e) => e.artifact)).toEqual(["checks_artifacts.reports[1]", "checks_artifacts.reports[1]"]);
  });

  it("stays quiet when a dataset-level table flags nothing, or a check that does not apply lists drifted columns", () => {
    expect(run(featureDrift, outcome({ category: "dataset_drift", tool: "evidently", status: "pass", details: [detail("a", 0.1, false)] }))).toEqual([]);
    expect(run(featureDrift, outcome({ category: "feature_drift", notApplicable: true, details: [detail("a", 0.9, true)] }))).toEqual([]);
  });

  it("ignores per-column flags of a drift check that passed", () => {
    const passed = outcome({ category: "feature_drift", status: "pass", details: [detail("a", 0.3, true), detail("b", 0.1, false)] });
    const failed = outcome({ category: "feature_drift", tool: "evidently", name: "ValueDrift(c)", columns: ["c"], observed: 0.4, threshold: 0.2 });
    const f = only(run(featureDrift, passed, failed));
    expect(f.description).toContain('1 of 3 features drifted (share 0.333): "c" 0.4');
  });

  it("keeps a column's flagged number over an unflagged one, in either order", () => {
    const a = outcome({ category: "feature_drift", tool: "evidently", name: "first", columns: ["x"], status: "pass", observed: 0.05, threshold: 0.2 });
    const b = outcome({ category: "feature_drift", tool: "evidently", name: "second", columns: ["x"], status: "fail", observed: 0.4, threshold: 0.2 });
    for (const order of [[a, b], [b, a]]) expect(only(run(featureDrift, ...order)).description).toMatch(/^1 of 1 features drifted \(share 1\): "x" 0\.4/);
    // Among two flagged numbers of a column, the first reported stands.
    const c = outcome({ category: "feature_drift", tool: "evidently", name: "third", columns: ["x"], status: "fail", observed: 0.5, threshold: 0.2 });
    expect(only(run(featureDrift, b, c)).description).toMatch(/: "x" 0\.4 \(threshold 0\.2\)\./);
  });
});

describe("CR-03 feature drift: a share only when the report assesses every feature", () => {
  it("gives no share for TFDV or generic records, which list only anomalous columns", () => {
    const generic = outcome({ category: "feature_drift", tool: "generic", name: "drift_check", columns: ["a", "b"], observed: 0.3, threshold: 0.1 });
    const f = only(run(featureDrift, generic));
    expect(f.description).toMatch(/^2 features drifted: "a" 0\.3 \(threshold 0\.1\), "b" 0\.3/);
    expect(f.evidence[0]).toMatchObject({ observed: 2, text: '2 features drifted: "a" 0.3 (threshold 0.1), "b" 0.3 (threshold 0.1).' });
    const single = only(run(featureDrift, { ...generic, tool: "tfdv", columns: ["a"] }));
    expect(single.description).toMatch(/^1 feature drifted: "a"/);
    expect(single.evidence[0]!.text).toMatch(/^1 feature drifted: /);
    // A non-drift check of a complete tool does not make the count complete.
    expect(only(run(featureDrift, generic, outcome({ category: "integrity", status: "pass" }))).description).toMatch(/^2 features drifted:/);
  });

  it("names the drifted columns when no number was given, and the check when nothing is listed", () => {
    const bare = outcome({ category: "feature_drift", tool: "generic", name: "drift_check", columns: ["a"] });
    const f = only(run(featureDrift, bare));
    expect(f.description).toMatch(/^1 feature drifted: "a"\. /);
    expect(f.evidence[0]!.text).toBe("1 feature drifted.");
    // A number without a threshold is quoted alone.
    expect(only(run(featureDrift, { ...bare, observed: 0.3 })).description).toMatch(/^1 feature drifted: "a" 0\.3\. /);
    const dataset = outcome({ category: "dataset_drift", tool: "evidently", name: "share", status: "pass", observed: 0.1, threshold: 0.5, details: [detail("a", 0.05, false)] });
    expect(only(run(featureDrift, dataset, outcome({ category: "feature_drift", tool: "evidently", name: "Drift", status: "warn", observed: 0.3, threshold: 0.2 }))).description).toMatch(/^1 of 2 features drifted \(share 0\.5\): "Drift" 0\.3/);
  });

  it("lists at most five scored columns, the furthest past its threshold first (p-values drift below theirs)", () => {
    const details = [
      detail("ks", 0.3, true), // 1.5 × 0.2
      detail("far", 0.8, true), // 4 ×
      detail("pv", 0.01, true, { method: "p_value", threshold: 0.05 }), // 5 ×
      detail("zero", 0.5, true, { threshold: 0 }), // no ratio
      detail("d", 0.25, true),
      detail("e", 0.21, true),
      detail("quiet", 0.1, false),
    ];
    const f = only(run(featureDrift, outcome({ category: "feature_drift", name: "Feature Drift", observed: 0.4, threshold: 0.2, details })));
    expect(f.description).toContain('6 of 7 features drifted (share 0.857): "pv" 0.01 (threshold 0.05), "far" 0.8 (threshold 0.2), "ks" 0.3 (threshold 0.2), "d" 0.25 (threshold 0.2), "e" 0.21 (threshold 0.2).');
  });
});

describe("CR-03 feature drift: confidence and evidence", () => {
  const drifted = (...details: CheckDetail[]) => only(run(featureDrift, outcome({ category: "feature_drift", name: "Feature Drift", observed: 0.3, threshold: 0.2, details: [...details, detail("ok1", 0.01, false), detail("ok2", 0.01, false), detail("ok3", 0.01, false), detail("ok4", 0.01, false)] })));

  it("rises with how far the worst column is past its threshold", () => {
    expect(drifted(detail("a", 0.3, true)).confidence).toBe(0.71); // 1.5 × its threshold
    expect(drifted(detail("a", 0.3, true), detail("b", 0.22, true)).confidence).toBe(0.71);
    expect(drifted(detail("a", 1 / 30, true, { method: "Chi-square p-value", threshold: 0.05 })).confidence).toBe(0.71); // 0.05 / 0.0333
    expect(drifted(detail("a", 0, true, { method: "p_value", threshold: 0.05 })).confidence).toBe(0.9); // capped at 10 ×
  });

  it("is at the rule's floor when no column has a usable ratio", () => {
    expect(drifted(detail("a", 0.3, true, { threshold: 0 })).confidence).toBe(0.55);
    expect(drifted(detail("a", 0.3, true, { threshold: null })).confidence).toBe(0.55);
    expect(drifted(detail("a", null, true)).confidence).toBe(0.55);
  });

  it("is raised when three or more columns drifted", () => {
    expect(drifted(detail("a", 0.3, true), detail("b", 0.3, true)).confidence).toBe(0.71);
    expect(drifted(detail("a", 0.3, true), detail("b", 0.3, true), detail("c", 0.3, true)).confidence).toBe(0.85);
  });

  it("leads the evidence with the overview, then each drift check, the largest observed number first", () => {
    const check = (name: string, observed: number | null, path: string) => outcome({ category: "feature_drift", tool: "evidently", name, columns: [name], observed, threshold: 0.1, path });
    const f = only(run(featureDrift, check("small", 0.2, "p1"), check("large", 0.5, "p2"), check("none", null, "p3")));
    expect(f.evidence.map((e) => e.artifact)).toEqual(["p2", "p2", "p1", "p3"]);
    expect(f.evidence[0]!.text).toBe('3 of 3 features drifted: "large" 0.5 (threshold 0.1), "small" 0.2 (threshold 0.1).');
    const many = Array.from({ length: 12 }, (_, i) => check(`c${i}`, 0.2, `p${i}`));
    expect(only(run(featureDrift, ...many)).evidence).toHaveLength(10);
  });
});

describe("CR-04 dataset drift", () => {
  const domain = (fields: Partial<CheckOutcome> = {}) => outcome({ category: "dataset_drift", name: "Multivariate Drift", observed: 0.5, threshold: 0.25, ...fields });

  it("describes a domain classifier: its AUC, drift score against the threshold, and its top features by importance", () => {
    const details = [detail("a", null, false, { importance: 0.5 }), detail("zero", null, false, { importance: 0 }), detail("b", null, false, { importance: 0.3 }), detail("c", null, false, { importance: 0.1 }), detail("d", null, false, { importance: 0.05 })];
    const f = only(run(datasetDrift, domain({ values: { domain_classifier_auc: 0.75 }, details })));
    expect(f.severity).toBe("high");
    expect(f.description).toMatch(/^Deepchecks "Multivariate Drift" failed: /);
    expect(f.description).toContain("AUC 0.75 (drift score 0.5 against 0.25); it relies most on a 0.5, b 0.3, c 0.1.");
    expect(f.confidence).toBe(0.82);
  });

  it("says when a domain classifier had no condition and the catalog's 0.25 applied, and applies it to the evidence", () => {
    const f = only(run(datasetDrift, domain({ status: "none", threshold: null, observed: 0.25 })));
    expect(f.severity).toBe("high");
    expect(f.description).toMatch(/^Deepchecks "Multivariate Drift" has no condition/);
    expect(f.description).toContain("(drift score 0.25 against 0.25, the catalog default)");
    // Nothing measured, nothing claimed: no AUC and no features without numbers for them.
    expect(f.description).not.toMatch(/AUC|relies most/);
    expect(f.evidence[0]).toMatchObject({ threshold: 0.25 });
    expect(f.evidence[0]!.text).toContain("against the catalog default 0.25");
    expect(f.confidence).toBe(0.55);
    expect(run(datasetDrift, domain({ status: "none", threshold: null, observed: 0.2499 }))).toEqual([]);
    // A verdict of the report's own says nothing of the catalog default, even without a threshold.
    expect(only(run(datasetDrift, domain({ threshold: null }))).evidence[0]).toMatchObject({ threshold: null, text: 'Deepchecks "Multivariate Drift" FAIL: 0.5.' });
  });

  it("is medium when it only warned, and measures confidence against the report's own threshold", () => {
    const f = only(run(datasetDrift, domain({ status: "warn", observed: 0.2, threshold: 0.1 })));
    expect(f.severity).toBe("medium");
    expect(f.description).toMatch(/^Deepchecks "Multivariate Drift" warned: /);
    expect(f.description).toContain("(drift score 0.2 against 0.1)");
    expect(f.confidence).toBe(0.82);
  });

  it("describes an Evidently share of drifted columns, with or without the totals, and the AUC of an Evidently domain classifier", () => {
    const share = (fields: Partial<CheckOutcome>) => outcome({ category: "dataset_drift", tool: "evidently", name: "DatasetDriftMetric", observed: 0.6, threshold: 0.5, ...fields });
    expect(only(run(datasetDrift, share({ values: { count: 6, columns: 10 } }))).description).toContain("failed: 6 of 10 columns drifted (share 0.6, dataset drift at ≥ 0.5).");
    expect(only(run(datasetDrift, share({ details: [detail("a", 0.3, true), detail("b", 0.3, true), detail("c", 0.1, false)] }))).description).toContain("failed: 2 of 3 columns drifted (share 0.6,");
    expect(only(run(datasetDrift, share({ threshold: null, values: { count: 3 } }))).description).toContain("failed: 3 columns drifted (share 0.6, dataset drift at ≥ 0.5).");
    expect(only(run(datasetDrift, share({ values: { count: 0 }, threshold: 0.7 }))).description).toContain("0 columns drifted (share 0.6, dataset drift at ≥ 0.7)");
    expect(only(run(datasetDrift, share({ values: { domain_classifier_auc: 0.9 } }))).description).toContain("apart with AUC 0.9 (drift score 0.6 against 0.5)");
  });

  it("counts a share stated twice by one tool once, and different numbers or tools apart", () => {
    const share = (tool: CheckOutcome["tool"], observed: number, threshold = 0.5) => outcome({ category: "dataset_drift", tool, name: "share", observed, threshold });
    expect(only(run(datasetDrift, share("evidently", 0.6), share("evidently", 0.6))).evidence).toHaveLength(1);
    expect(only(run(datasetDrift, share("evidently", 0.6), share("evidently", 0.7))).evidence).toHaveLength(2);
    expect(only(run(datasetDrift, share("evidently", 0.6), share("evidently", 0.6, 0.4))).evidence).toHaveLength(2);
    expect(only(run(datasetDrift, share("evidently", 0.6), share("generic", 0.6))).evidence).toHaveLength(2);
  });
});

describe("CR-05 label drift", () => {
  const label = (fields: Partial<CheckOutcome> = {}) => outcome({ category: "label_drift", name: "Label Drift", observed: 0.3, threshold: 0.2, details: [detail("label", 0.3, true, { method: "PSI" })], ...fields });

  it("quotes the score, its method and the report's own threshold, with confidence from their ratio", () => {
    const f = only(run(labelDrift, label()));
    expect(f.description).toMatch(/^Deepchecks "Label Drift" failed: drift score 0\.3 \(PSI\) against 0\.2\. /);
    expect(f.severity).toBe("high");
    expect(f.confidence).toBe(0.71);
  });

  it("says when a score exceeds the default without a condition, with the default in the evidence", () => {
    const f = only(run(labelDrift, label({ status: "none", threshold: null, details: [] })));
    expect(f.description).toMatch(/^Deepchecks "Label Drift" exceeds the default threshold: drift score 0\.3 against 0\.15\. /);
    expect(f.evidence[0]).toMatchObject({ threshold: 0.15 });
    expect(f.confidence).toBe(0.82);
  });

  it("is medium for a warning, and reads a generic check's own message", () => {
    const f = only(run(labelDrift, label({ status: "warn" })));
    expect(f.severity).toBe("medium");
    expect(f.description).toMatch(/^Deepchecks "Label Drift" warned: /);
    expect(f.evidence[0]).toMatchObject({ threshold: 0.2 });
    // A failure without a threshold is the report's own verdict: no catalog default in its evidence.
    expect(only(run(labelDrift, label({ threshold: null }))).evidence[0]).toMatchObject({ threshold: null });
    const generic = only(run(labelDrift, outcome({ category: "label_drift", tool: "generic", name: "target_share", message: "Churn rate 26% in train vs 34% in test." })));
    expect(generic.description).toMatch(/^Check "target_share" failed: Churn rate 26% in train vs 34% in test\. /);
    expect(generic.confidence).toBe(0.55);
  });
});

describe("CR-05 prediction drift", () => {
  const prediction = (fields: Partial<CheckOutcome> = {}) => outcome({ category: "prediction_drift", name: "Prediction Drift", observed: 0.3, threshold: 0.2, ...fields });

  it("quotes the score against the threshold when there are both, and measures confidence by them", () => {
    const f = only(run(predictionDrift, prediction()));
    expect(f.description).toMatch(/^Deepchecks "Prediction Drift" failed \(score 0\.3 against 0\.2\): /);
    expect(f.confidence).toBe(0.71);
    const noThreshold = only(run(predictionDrift, prediction({ threshold: null })));
    expect(noThreshold.description).toMatch(/^Deepchecks "Prediction Drift" failed \(score 0\.3\): /);
    expect(noThreshold.confidence).toBe(0.82); // against the catalog's 0.15
    const noScore = only(run(predictionDrift, prediction({ observed: null, status: "warn" })));
    expect(noScore.description).toMatch(/^Deepchecks "Prediction Drift" warned: /);
    expect(noScore.severity).toBe("medium");
    expect(noScore.confidence).toBe(0.55);
  });
});

describe("CR-02 shortcut risk", () => {
  const shortcut = (details: CheckDetail[], fields: Partial<CheckOutcome> = {}) => outcome({ category: "shortcut", name: "Property Label Correlation Change", observed: 0.3, threshold: 0.2, details, ...fields });

  it("describes the flagged property with the largest difference, its train and test PPS", () => {
    const f = only(run(shortcutRisk, shortcut([detail("Area", 0.25, true, { importance: 0.4 }), detail("Unflagged", 0.9, false, { importance: 0.9 }), detail("Brightness", 0.3, true, { importance: 0.5, subject: "blight" })])));
    expect(f.description).toMatch(/^Deepchecks "Property Label Correlation Change" failed: "Brightness" predicts "blight" with PPS 0\.5 in train but 0\.2 in test \(difference 0\.3, allowed < 0\.2\)\. /);
    expect(f.severity).toBe("high");
    expect(f.confidence).toBe(0.71);
  });

  it("describes the largest difference whatever order the report lists the properties in", () => {
    for (const details of [[detail("Brightness", 0.3, true), detail("Area", 0.25, true)], [detail("Area", 0.25, true), detail("Brightness", 0.3, true)]]) {
      expect(only(run(shortcutRisk, shortcut(details))).description).toContain('"Brightness" predicts the label differently in train and test (PPS difference 0.3)');
    }
  });

  it("falls back to the difference alone without a train PPS, and leaves out an unknown threshold", () => {
    const f = only(run(shortcutRisk, shortcut([detail("Area", 0.25, true)], { status: "warn", threshold: null })));
    expect(f.description).toMatch(/^Deepchecks "Property Label Correlation Change" warned: "Area" predicts the label differently in train and test \(PPS difference 0\.25\) \(difference 0\.25\)\./);
    expect(f.severity).toBe("medium");
    expect(f.confidence).toBe(0.71); // 0.3 against the catalog's 0.2
    const noScore = only(run(shortcutRisk, shortcut([detail("Area", null, true, { importance: 0.4 })])));
    expect(noScore.description).toContain('"Area" predicts the label differently in train and test (PPS difference 0) (difference 0, allowed < 0.2)');
  });

  it("names no property when none is flagged, and rates confidence at the default when nothing was measured", () => {
    const f = only(run(shortcutRisk, shortcut([detail("Area", 0.1, false)], { observed: null })));
    expect(f.description).toMatch(/^Deepchecks "Property Label Correlation Change" failed\. /);
    expect(f.confidence).toBe(0.55);
  });
});
