import { detectorFinding, scoreConfidence } from "../../findings.js";
import { listNames, pct } from "../../../artifacts/json-values.js";
import { type ChecksDetector, checkLabel, flagged, flaggedNames, leadOutcome, outcomeEvidence, severityByStatus, verdictWord } from "../detector.js";

/** DS-03 via a check: labels in test that train never had (Deepchecks NewLabelTrainTest / NewLabels) → high. */
export const newLabels: ChecksDetector = {
  info: {
    id: "checks.new_labels",
    rule: "DS-03",
    title: "Test labels missing from train",
    threshold: "NewLabelTrainTest FAIL (0 allowed tabular, ≤ 0.5 % vision) → high; WARN → medium",
    severities: ["high", "medium"],
    basis: "Deepchecks NewLabelTrainTest / NewLabels defaults [P-Deepchecks]",
  },
  detect(report) {
    const found = flagged(report, "new_labels");
    const lead = leadOutcome(found);
    if (!lead) return [];
    const labels = flaggedNames(found);
    return [
      detectorFinding({
        id: this.info.id,
        title: "Test data has labels train never had",
        description: `${checkLabel(lead)} ${verdictWord(lead)}${labels.length ? `: ${listNames(labels)}` : ""}${lead.observed !== null ? ` (${pct(lead.observed, 2)} of test rows)` : ""}. The model cannot predict classes it never saw.`,
        evidence: found.map((o) => outcomeEvidence(this.info.rule, o)),
        severity: severityByStatus(found, "high", "medium"),
        confidence: scoreConfidence({ strength: 2, threshold: 1 }),
        recommendation: { action: "Re-split stratified by label so every class is in train, or collect training examples of the new classes.", rationale: "A class absent from training is an error on every evaluation row that has it.", category: "data", effort: "low" },
      }),
    ];
  },
};
