import type { Finding } from "../../graph/result.js";
import { detectorFinding } from "../findings.js";
import type { ChecksReport } from "./parse.js";

/** CR-01 (generic): each failed check is a finding; a warning one level lower. */
export function detectFailedChecks(report: ChecksReport): Finding[] {
  return report.outcomes
    .filter((o) => o.status === "fail" || o.status === "warn")
    .map((o) =>
      detectorFinding({
        id: "checks.check_failed",
        title: "Data check did not pass",
        description: `Check "${o.name}" ${o.status === "fail" ? "failed" : "warned"}${o.message ? `: ${o.message}` : "."}`,
        evidence: [{ rule_id: "CR-01", artifact: `checks_artifacts.checks:${o.name}`, text: `${o.tool} check "${o.name}" status ${o.status}.`, observed: o.status }],
        severity: o.status === "fail" ? "medium" : "low",
        confidence: 0.8,
        recommendation: { action: `Investigate the cause of "${o.name}" before trusting the evaluation.`, rationale: "A failing data check points at a data fault the metrics may hide.", category: "data", effort: "medium" },
      }),
    );
}

/** CR-09: checks that errored leave a coverage gap. */
export function detectCoverageGap(report: ChecksReport): Finding[] {
  const errored = report.outcomes.filter((o) => o.status === "error");
  if (errored.length === 0) return [];
  return [
    detectorFinding({
      id: "checks.coverage_gap",
      title: "Some checks could not run",
      description: `${errored.length} check(s) ended in error: ${errored.map((o) => o.name).join(", ")}.`,
      evidence: errored.map((o) => ({ rule_id: "CR-09", artifact: `checks_artifacts.checks:${o.name}`, text: `"${o.name}" errored${o.message ? `: ${o.message}` : ""}.`, observed: "error" })),
      severity: "info",
      confidence: 0.9,
      recommendation: { action: "Fix or remove the checks that error so the suite covers what it claims.", rationale: "A check that errors says nothing about the data.", category: "infrastructure", effort: "low" },
    }),
  ];
}

export function detectChecksFindings(report: ChecksReport): Finding[] {
  return [...detectFailedChecks(report), ...detectCoverageGap(report)];
}
