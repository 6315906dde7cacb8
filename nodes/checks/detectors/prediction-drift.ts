import { detectorFinding, scoreConfidence } from "../../findings.js";
import { fmt } from "../../../artifacts/json-values.js";
import { type ChecksDetector, checkLabel, flagged, leadOutcome, outcomeEvidence, severityByStatus, verdictWord } from "../detector.js";

/** CR-05 (predictions): the model's prediction distribution differs between train and test (PredictionDrift ≥ 0.15) → high; WARN → medium. */
export const predictionDrift: ChecksDetector = {
  info: {
    id: "checks.prediction_drift",
    rule: "CR-05",
    title: "Prediction drift",
    threshold: "PredictionDrift FAIL (default ≥ 0.15) → high; WARN → medium",
    severities: ["high", "medium"],
    basis: "Deepchecks PredictionDrift 0.15 [P-Deepchecks]; Rabanser et al. 2019 (BBSD) [K23]",
  },
  detect(report) {
    const found = flagged(report, "prediction_drift");
    const lead = leadOutcome(found);
    if (!lead) return [];
    return [
      detectorFinding({
        id: this.info.id,
        title: "The model's predictions shifted",
        description: `${checkLabel(lead)} ${verdictWord(lead)}${lead.observed !== null ? ` (score ${fmt(lead.observed)}${lead.threshold !== null ? ` against ${fmt(lead.threshold)}` : ""})` : ""}: the model predicts a different class mix on evaluation data than on training data, a sign of input or label shift.`,
        evidence: found.map((o) => outcomeEvidence(this.info.rule, o)),
        severity: severityByStatus(found, "high", "medium"),
        confidence: scoreConfidence({ strength: lead.observed ?? 0.15, threshold: lead.threshold ?? 0.15 }),
        recommendation: {
          action: "Compare the predicted class mix with the true one on the evaluation data; find the drifted inputs behind it and recalibrate or retrain on matching data.",
          rationale: "Shifts in model outputs are the most sensitive signal of dataset shift (Rabanser et al. 2019).",
          category: "data",
          effort: "medium",
        },
      }),
    ];
  },
};
