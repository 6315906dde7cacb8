import { detectorFinding, scoreConfidence } from "../../findings.js";
import { fmt } from "../../../artifacts/json-values.js";
import { type ChecksDetector, checkLabel, flaggedOrOverDefault, leadOutcome, outcomeEvidence, severityByStatus } from "../detector.js";

/** Deepchecks LabelDrift default condition. */
const LABEL_DRIFT_DEFAULT = 0.15;

/** CR-05: the label distribution differs between train and evaluation data (LabelDrift ≥ 0.15, target-share shift) → high; WARN → medium. */
export const labelDrift: ChecksDetector = {
  info: {
    id: "checks.label_drift",
    rule: "CR-05",
    title: "Label drift",
    threshold: "LabelDrift FAIL (default Cramér's V / PSI ≥ 0.15) or a failed target-share check → high; WARN → medium",
    severities: ["high", "medium"],
    basis: "Deepchecks LabelDrift 0.15 [P-Deepchecks]; Lipton et al. 2018 BBSE [K24]",
  },
  detect(report) {
    const found = flaggedOrOverDefault(report, "label_drift", LABEL_DRIFT_DEFAULT);
    const lead = leadOutcome(found);
    if (!lead) return [];
    const method = lead.details[0]?.method;
    const threshold = lead.threshold ?? LABEL_DRIFT_DEFAULT;
    const what = lead.message && lead.tool === "generic" ? lead.message.replace(/\.$/, "") : `drift score ${fmt(lead.observed ?? 0)}${method ? ` (${method})` : ""} against ${fmt(threshold)}`;
    return [
      detectorFinding({
        id: this.info.id,
        title: "The label distribution shifted",
        description: `${checkLabel(lead)} ${lead.status === "warn" ? "warned" : lead.status === "none" ? "exceeds the default threshold" : "failed"}: ${what}. Class priors differ between training and evaluation data, so accuracy and thresholds tuned on one do not transfer.`,
        evidence: found.map((o) => outcomeEvidence(this.info.rule, o, o.status === "none" ? LABEL_DRIFT_DEFAULT : undefined)),
        severity: severityByStatus(found, "high", "medium"),
        confidence: scoreConfidence({ strength: lead.observed ?? threshold, threshold }),
        recommendation: {
          action: "Build validation from the target distribution (or re-split stratified if the shift is accidental); if the shift is real, re-weight classes by estimated priors (BBSE) and recalibrate decision thresholds.",
          rationale: "Under label shift, p(y) changes while p(x|y) stays: re-weighting by estimated class ratios corrects it (Lipton et al. 2018).",
          category: "data",
          effort: "medium",
        },
      }),
    ];
  },
};
