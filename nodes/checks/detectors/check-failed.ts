import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type ChecksDetector, checkLabel, flagged, leadOutcome, outcomeEvidence, severityByStatus, verdictWord } from "../detector.js";

/**
 * CR-01 (other checks): failed checks that no specific rule covers (train/test size and category comparisons,
 * uncategorized generic checks) → medium; WARN → low.
 */
export const checkFailed: ChecksDetector = {
  info: {
    id: "checks.check_failed",
    rule: "CR-01",
    title: "Other checks failed",
    threshold: "any FAIL of a check outside the specific rules (sizes, category comparisons, uncategorized) → medium; WARN → low",
    severities: ["medium", "low"],
    basis: "Deepchecks DatasetsSizeComparison (test/train > 0.01), NewCategoryTrainTest [P-Deepchecks]",
  },
  detect(report) {
    const found = flagged(report, "split", "other");
    const lead = leadOutcome(found);
    if (!lead) return [];
    return [
      detectorFinding({
        id: this.info.id,
        title: "Other data checks did not pass",
        description: `${found.length} further check(s) did not pass; ${checkLabel(lead)} ${verdictWord(lead)}${lead.condition ? ` on "${lead.condition}"` : ""}${lead.message ? `: ${lead.message}` : ""}.`,
        evidence: found.slice(0, 10).map((o) => outcomeEvidence(this.info.rule, o)),
        severity: severityByStatus(found, "medium", "low"),
        confidence: scoreConfidence({ strength: 1.2, threshold: 1 }),
        recommendation: { action: "Read each failing check's details and fix the data or the split it points at, then re-run the report.", rationale: "A failing check documents an assumption about the data that does not hold.", category: "data", effort: "medium" },
      }),
    ];
  },
};
