import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type ChecksDetector, checkLabel, flagged, leadOutcome, outcomeEvidence, verdictWord, worstSeverity } from "../detector.js";

/** CR-06: schema checks that failed (columns missing or added, wrong types) → high; WARN → medium. */
export const schemaAnomaly: ChecksDetector = {
  info: {
    id: "checks.schema_anomaly",
    rule: "CR-06",
    title: "Schema anomaly",
    threshold: "schema check FAIL (GE table columns / column type expectations, generic schema checks, Evidently column-type tests) → high; WARN → medium; a GE expectation's own severity wins when the suite sets them",
    severities: ["critical", "high", "medium", "info"],
    basis: "TFDV anomalies (ERROR → high, WARNING → medium) [P-TFDV]; Breck et al. 2019 [K25]",
  },
  detect(report) {
    const found = flagged(report, "schema");
    const lead = leadOutcome(found);
    if (!lead) return [];
    return [
      detectorFinding({
        id: this.info.id,
        title: "The data does not match its schema",
        description: `${checkLabel(lead)} ${verdictWord(lead)}${lead.message ? `: ${lead.message}` : ""}. Columns or types differ from what the pipeline expects, so features may be missing, misread or shifted.`,
        evidence: found.slice(0, 10).map((o) => outcomeEvidence(this.info.rule, o)),
        // The severity the suite declared for a check wins over the status band.
        severity: worstSeverity(found.map((o) => o.declaredSeverity ?? (o.status === "warn" ? "medium" : "high"))),
        confidence: scoreConfidence({ strength: 2, threshold: 1 }),
        recommendation: { action: "Fix the upstream producer or update the schema deliberately (never silently), and make the schema check block training on mismatch.", rationale: "Schema changes silently corrupt features; validating them is the first line of ML data validation (Breck et al. 2019).", category: "data", effort: "low" },
      }),
    ];
  },
};
