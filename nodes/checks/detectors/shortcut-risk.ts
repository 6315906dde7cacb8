import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type ChecksDetector, checkLabel, flagged, leadOutcome, outcomeEvidence, severityByStatus, verdictWord } from "../detector.js";
import type { CheckDetail } from "../model.js";
import { fmt } from "../../../artifacts/json-values.js";

function detailText(d: CheckDetail): string {
  const trainPps = d.importance;
  const testPps = trainPps !== undefined && d.score !== null ? trainPps - d.score : null;
  const what = d.subject ? `"${d.name}" predicts "${d.subject}"` : `"${d.name}" predicts the label`;
  return trainPps !== undefined && testPps !== null ? `${what} with PPS ${fmt(trainPps)} in train but ${fmt(testPps)} in test` : `${what} differently in train and test (PPS difference ${fmt(d.score ?? 0)})`;
}

/**
 * CR-02 (correlation change): a feature or image property predicts the label in train but not in test
 * (Feature/Property Label Correlation Change, PPS difference ≥ 0.2): the model can learn a shortcut that does
 * not hold outside the training data → high; WARN → medium.
 */
export const shortcutRisk: ChecksDetector = {
  info: {
    id: "checks.shortcut_risk",
    rule: "CR-02",
    title: "Shortcut: a feature predicts the label only in train",
    threshold: "Feature/Property Label Correlation Change FAIL (train–test PPS difference ≥ 0.2) → high; WARN → medium",
    severities: ["high", "medium"],
    basis: "Deepchecks FeatureLabelCorrelationChange / PropertyLabelCorrelationChange (PPS diff < 0.2) [P-Deepchecks]; Kapoor & Narayanan 2023 [K20]",
  },
  detect(report) {
    const failing = flagged(report, "shortcut");
    if (!failing.length) return [];
    const lead = leadOutcome(failing)!;
    const top = lead.details.filter((d) => d.flagged).sort((a, b) => (b.score ?? 0) - (a.score ?? 0))[0];
    return [
      detectorFinding({
        id: this.info.id,
        title: "Shortcut risk: a feature predicts the label only in train",
        description: `${checkLabel(lead)} ${verdictWord(lead)}${top ? `: ${detailText(top)} (difference ${fmt(top.score ?? 0)}${lead.threshold !== null ? `, allowed < ${fmt(lead.threshold)}` : ""})` : ""}. The model can learn this spurious cue (for example capture conditions that differ by class) instead of the real signal, and it will not hold on new data.`,
        evidence: failing.map((o) => outcomeEvidence(this.info.rule, o)),
        severity: severityByStatus(failing, "high", "medium"),
        confidence: scoreConfidence({ strength: lead.observed ?? 0.2, threshold: lead.threshold ?? 0.2 }),
        recommendation: {
          action: "Balance how each class is collected (same capture sessions, devices, lighting), augment the property that acts as a cue (brightness, contrast, colour), and check per-class results on data collected like the test set.",
          rationale: "A cue that predicts the label in train but not in test is a shortcut: models latch onto it and fail where it changes (Kapoor & Narayanan 2023).",
          category: "data",
          effort: "medium",
        },
      }),
    ];
  },
};
