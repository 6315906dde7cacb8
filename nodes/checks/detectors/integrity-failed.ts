import type { Severity } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { listNames } from "../../../artifacts/json-values.js";
import { type ChecksDetector, checkLabel, flagged, lowerSeverity, outcomeEvidence, worstSeverity } from "../detector.js";
import type { CheckOutcome, ChecksReport } from "../model.js";
import { normalizeCheckName } from "../parse/deepchecks-catalog.js";
import { datasetBandOf } from "../stated-stats.js";

/** Hygiene checks whose failure is a low-severity finding (the DS-05 / DS-04 "low" bands). */
const LOW_CHECKS = /single value|single_value|constant|mixed nulls|mixed data types|string mismatch|special characters|string length|outlier|feature feature correlation|image property outliers/;

/** The severity a failing integrity check maps to without a share to judge (its DS-* equivalent), before lowering a WARN. */
function mappedSeverity(key: string): Severity {
  if (/has nan|has inf|non ?finite/.test(key)) return "high";
  if (LOW_CHECKS.test(key)) return "low";
  return "medium";
}

/**
 * A duplicate, conflicting-label or missing share the check states is judged by the dataset rule's own code, like
 * any stated fact, also under a WARN (Deepchecks gives those conditions the WARN category by default); any other
 * check maps to its DS severity, a WARN one level lower.
 */
function severityOf(o: CheckOutcome, report: ChecksReport): Severity {
  const key = normalizeCheckName(o.name);
  const band = o.observed !== null ? datasetBandOf(key, o.observed, report) : null;
  if (band) return band;
  return o.status === "warn" ? lowerSeverity(mappedSeverity(key)) : mappedSeverity(key);
}

/** CR-01: data-integrity checks that failed, mapped to their DS-* severity; a WARN one level lower. */
export const integrityFailed: ChecksDetector = {
  info: {
    id: "checks.integrity_failed",
    rule: "CR-01",
    title: "Data-integrity checks failed",
    threshold: "any FAIL (severity of the matching DS rule, default medium); WARN one level lower; a duplicate, conflicting-label or missing share the check states is judged by the DS-07/DS-09/DS-04 code itself (at least its mildest band, low at the least), WARN or FAIL",
    severities: ["high", "medium", "low", "info"],
    basis: "Deepchecks data_integrity suite conditions [P-Deepchecks]; Breck et al. 2019 [K25]",
  },
  detect(report) {
    const failing = flagged(report, "integrity").map((o) => ({ o, severity: severityOf(o, report) }));
    if (!failing.length) return [];
    const severity = worstSeverity(failing.map((f) => f.severity));
    const described = failing.map(({ o }) => `${checkLabel(o)}${o.columns.length ? ` (${listNames(o.columns, 3)})` : ""} ${o.status === "fail" ? "failed" : "warned"}`);
    const strongest = failing.find((f) => f.severity === severity)!.o;
    return [
      detectorFinding({
        id: this.info.id,
        title: "Data-integrity checks did not pass",
        description: `${described.slice(0, 4).join("; ")}${described.length > 4 ? `; and ${described.length - 4} more` : ""}.${strongest.message ? ` ${strongest.message}` : ""}`,
        evidence: failing.slice(0, 10).map(({ o }) => outcomeEvidence(this.info.rule, o)),
        severity,
        confidence: strongest.observed !== null && strongest.threshold ? scoreConfidence({ strength: strongest.observed, threshold: strongest.threshold }) : 0.8,
        recommendation: {
          action: "Fix the failing integrity issues at their source (pipeline joins, defaults, collection), e.g. impute with a missingness indicator or drop single-valued columns, then re-run the suite.",
          rationale: "Integrity faults silently change what the model learns; a check that flags them is cheaper to fix now than a model trained on them.",
          category: "data",
          effort: "low",
        },
      }),
    ];
  },
};
