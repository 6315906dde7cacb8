import type { Severity } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { fmt, listNames, pct } from "../../../artifacts/json-values.js";
import { type ChecksDetector, flagged, outcomeEvidence, worstSeverity } from "../detector.js";
import type { CheckOutcome } from "../model.js";

/** Share of unexpected values above which a failed expectation is high: most of the column is wrong. */
const HIGH_UNEXPECTED = 0.5;

/** Only column-map expectations (with an unexpected count) have an unexpected share; aggregates observe a value. */
function unexpectedShare(o: CheckOutcome): number | null {
  return o.values.unexpected_count !== undefined ? o.observed : null;
}

/** The severity the user declared for the expectation, else medium (high past half of the values unexpected). */
function severityOf(o: CheckOutcome): Severity {
  return o.declaredSeverity ?? ((unexpectedShare(o) ?? 0) > HIGH_UNEXPECTED ? "high" : "medium");
}

/** What kind of expectation it is (CR-07's mapping), for the description. */
function kindOf(type: string): string {
  if (/null/.test(type)) return "missing values";
  if (/unique/.test(type)) return "duplicates";
  if (/between|in_set|regex|match|length|min|max|sum|mean|median|std|quantile/.test(type)) return "value ranges";
  if (/row_count/.test(type)) return "row count";
  return "other";
}

/**
 * CR-07: Great Expectations expectations that failed (`success: false`). An expectation within its `mostly`
 * allowance has success true and is not a failure. Medium; high when more than half of the values are unexpected;
 * the severity the suite gave the expectation, when it gave one.
 */
export const expectationFailed: ChecksDetector = {
  info: {
    id: "checks.expectation_failed",
    rule: "CR-07",
    title: "Expectations failed",
    threshold: "GE success = false (unexpected share above 1 − mostly) → medium; > 50 % unexpected → high; an expectation's own severity (critical, warning → medium, info) wins when the suite sets them",
    severities: ["critical", "high", "medium", "info"],
    basis: "Great Expectations validation results [P-GE]; Breck et al. 2019 [K25]",
  },
  detect(report) {
    const failed = flagged(report, "expectation");
    if (!failed.length) return [];
    const severity = worstSeverity(failed.map(severityOf));
    const evaluated = report.outcomes.filter((o) => o.tool === "great_expectations" && o.status !== "none").length;
    const kinds = [...new Set(failed.map((o) => kindOf(o.name)))];
    const parts = failed.slice(0, 4).map((o) => {
      const share = unexpectedShare(o);
      const numbers = share !== null ? ` (${pct(share, 2)} unexpected, allowed ${pct(o.threshold ?? 0, 2)})` : o.observed !== null ? ` (observed ${fmt(o.observed)})` : "";
      return `${o.name}${o.columns.length ? ` on ${listNames(o.columns, 2)}` : ""}${numbers}`;
    });
    const worst = failed.find((o) => severityOf(o) === severity)!;
    return [
      detectorFinding({
        id: this.info.id,
        title: "Data expectations failed",
        description: `${failed.length}${evaluated ? ` of ${evaluated}` : ""} expectations failed (${kinds.join(", ")}): ${parts.join("; ")}${failed.length > 4 ? `; and ${failed.length - 4} more` : ""}.`,
        evidence: failed.slice(0, 10).map((o) => outcomeEvidence(this.info.rule, o)),
        severity,
        confidence: unexpectedShare(worst) !== null ? scoreConfidence({ strength: unexpectedShare(worst)!, threshold: Math.max(worst.threshold ?? 0, 0.01) }) : 0.8,
        recommendation: { action: "Inspect the unexpected values the result lists, fix their source (or correct the expectation if the data is right), and re-validate before training.", rationale: "A failed expectation is a documented assumption about the data that no longer holds.", category: "data", effort: "low" },
      }),
    ];
  },
};
