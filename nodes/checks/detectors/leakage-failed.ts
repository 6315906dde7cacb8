import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type ChecksDetector, checkLabel, flaggedOrOverDefault, leadOutcome, outcomeEvidence, severityByStatus, verdictWord } from "../detector.js";
import type { CheckOutcome } from "../model.js";
import { fmt, pct } from "../../../artifacts/json-values.js";

/** Catalog defaults for leakage checks that ran without a condition: samples mix 5 %, single-feature PPS 0.8. */
const SAMPLES_MIX_DEFAULT = 0.05;

function leakText(o: CheckOutcome): string {
  const rows = o.values.matched_rows !== undefined && o.values.total_rows !== undefined ? ` (${fmt(o.values.matched_rows)} / ${fmt(o.values.total_rows)} rows)` : "";
  if (/samples mix|overlap|duplicat/i.test(o.name) && o.observed !== null) {
    return `${pct(o.observed, 2)} of the test rows${rows} also appear in train${o.threshold !== null ? ` (allowed: ${pct(o.threshold, 2)})` : ""}`;
  }
  if (o.columns.length) return `${o.columns.join(", ")} predict${o.columns.length === 1 ? "s" : ""} the label${o.observed !== null ? ` (score ${fmt(o.observed)})` : ""}`;
  return o.message || "the check failed";
}

/** CR-02: a failed leakage check (train–test samples mix, date/index leakage, identifier–label correlation) → high. */
export const leakageFailed: ChecksDetector = {
  info: {
    id: "checks.leakage_failed",
    rule: "CR-02",
    title: "Leakage check failed",
    threshold: "any FAIL of TrainTestSamplesMix (> 5 %), Date/Index leakage (> 0), IdentifierLabelCorrelation (> 0), FeatureLabelCorrelation (PPS ≥ 0.8) → high; WARN → medium",
    severities: ["high", "medium"],
    basis: "Deepchecks train_test_validation defaults [P-Deepchecks]; Kaufman et al. 2012 [K19]; Kapoor & Narayanan 2023 [K20]; Barz & Denzler 2020 [K31]",
  },
  detect(report) {
    // Only the samples mix has a catalog default that applies to a bare ratio.
    const failing = flaggedOrOverDefault(report, "leakage", SAMPLES_MIX_DEFAULT).filter((o) => o.status !== "none" || /samples mix/i.test(o.name));
    const lead = leadOutcome(failing);
    if (!lead) return [];
    const strength = lead.observed !== null && (lead.threshold ?? SAMPLES_MIX_DEFAULT) > 0 ? lead.observed / (lead.threshold ?? SAMPLES_MIX_DEFAULT) : 2;
    return [
      detectorFinding({
        id: this.info.id,
        title: "Leakage between training and evaluation data",
        description: `${checkLabel(lead)} ${verdictWord(lead)}: ${leakText(lead)}.${failing.length > 1 ? ` ${failing.length - 1} more leakage check(s) did not pass.` : ""} Evaluation scores on this data overstate real performance.`,
        evidence: failing.map((o) => outcomeEvidence(this.info.rule, o, o.status === "none" ? SAMPLES_MIX_DEFAULT : undefined)),
        severity: severityByStatus(failing, "high", "medium"),
        confidence: scoreConfidence({ strength, threshold: 1 }),
        recommendation: {
          action: "Remove the shared rows, split by entity (customer, order) or by time, drop identifier and post-outcome columns, then re-evaluate against a simple baseline.",
          rationale: "Rows or identifiers shared across the split let the model score by memory; 3–10 % test duplicates already inflated CIFAR accuracy by 9–14 % relative (Barz & Denzler 2020).",
          category: "data",
          effort: "medium",
        },
      }),
    ];
  },
};
