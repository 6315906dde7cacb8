import type { Finding } from "../../domain/result.js";
import { coveredIds, FINDING_ID_KEY } from "../root-causes.js";
import { flagged, flaggedNames } from "./detector.js";
import { columnDrifts, driftedShare } from "./detectors/feature-drift.js";
import type { ChecksFacts } from "./facts.js";
import type { ChecksReport } from "./model.js";

const NULL_LIKE = /null|nan|missing|finite|\binf/i;

function firstRows(report: ChecksReport, role: "train" | "test"): number | null {
  return report.rowCounts.find((r) => r.role === role)?.rows ?? null;
}

/** The checks a finding's evidence names (`values.check`). */
function checksNamedBy(findings: readonly Finding[], id: string): string[] {
  const f = findings.find((x) => coveredIds(x).includes(id));
  const own = f?.evidence.filter((e) => (e.values?.[FINDING_ID_KEY] ?? f.id) === id) ?? [];
  return [...new Set(own.flatMap((e) => (typeof e.values?.check === "string" ? [e.values.check] : [])))];
}

/** Numbers for the cross-artifact rules, from the normalized report and the findings its detectors made. */
export function checksFacts(report: ChecksReport, findings: readonly Finding[]): ChecksFacts {
  // A finding merged into another by root-cause grouping is still there.
  const has = (id: string) => findings.some((f) => coveredIds(f).includes(id));
  const drifts = columnDrifts(report);
  const evidentlyShare = report.outcomes.find((o) => o.category === "dataset_drift" && o.tool === "evidently" && o.observed !== null)?.observed ?? null;
  const labelScores = report.outcomes.filter((o) => o.category === "label_drift" && o.observed !== null).map((o) => o.observed!);
  const samplesMix = report.outcomes.find((o) => o.category === "leakage" && /samples mix|overlap/i.test(o.name) && o.observed !== null);
  const nullChecks = [...flagged(report, "integrity", "expectation")].filter((o) => NULL_LIKE.test(`${o.name} ${o.message}`));
  const verdicts = report.outcomes.filter((o) => o.status !== "none");
  return {
    tools: [...new Set(report.outcomes.map((o) => o.tool))],
    leakage_failures: checksNamedBy(findings, "checks.leakage_failed"),
    drifted_features: drifts.filter((d) => d.flagged).map((d) => d.name),
    drift_share: evidentlyShare ?? driftedShare(report, drifts),
    label_drift: labelScores.length ? Math.max(...labelScores) : null,
    label_drift_detected: has("checks.label_drift"),
    overlap_fraction: samplesMix?.observed ?? null,
    nonfinite_columns: flaggedNames(nullChecks),
    checks_total: verdicts.length,
    checks_failed: verdicts.filter((o) => o.status === "fail").length,
    checks_warned: verdicts.filter((o) => o.status === "warn").length,
    checks_errored: verdicts.filter((o) => o.status === "error" || o.status === "skipped").length,
    dataset_drift_detected: has("checks.dataset_drift"),
    shortcut_features: flaggedNames(flagged(report, "shortcut")),
    row_counts: { train: firstRows(report, "train"), test: firstRows(report, "test") },
    columns_checked: [...new Set([...report.columnSets.flatMap((c) => c.columns), ...report.outcomes.filter((o) => o.tool !== "deepchecks").flatMap((o) => o.columns)])],
  };
}
