import type { Evidence } from "../../../domain/result.js";
import { detectorFinding } from "../../findings.js";
import { listNames } from "../../../artifacts/json-values.js";
import { type ChecksDetector, checkLabel, outcomeEvidence } from "../detector.js";

/**
 * CR-09: what the reports do not cover: checks that do not apply to the task (a note, not a fault), checks that
 * errored or were skipped, suites switched off, and parts of the artifact that are no known format. Info.
 */
export const coverageGap: ChecksDetector = {
  info: {
    id: "checks.coverage_gap",
    rule: "CR-09",
    title: "Gaps in check coverage",
    threshold: "any ERROR / CheckFailure / SKIPPED check, suite switched off, or unreadable report",
    severities: ["info"],
    basis: "ML Test Score: tests for data and model [K26]",
  },
  detect(report) {
    const notApplicable = report.outcomes.filter((o) => o.notApplicable);
    const errored = report.outcomes.filter((o) => !o.notApplicable && (o.status === "error" || o.status === "skipped"));
    if (!notApplicable.length && !errored.length && !report.suitesSkipped.length && !report.unreadable.length) return [];
    const sentences: string[] = [];
    const erroredNames = [...new Set(errored.map((o) => o.name))];
    const naNames = [...new Set(notApplicable.map((o) => o.name))];
    if (errored.length) sentences.push(`${erroredNames.length} check(s) could not run: ${listNames(erroredNames)}.`);
    if (notApplicable.length) sentences.push(`${listNames(naNames)} ${naNames.length === 1 ? "does" : "do"} not apply to this task or data (${notApplicable[0]!.message.replace(/\.$/, "")}): a coverage note, not a data fault.`);
    if (report.suitesSkipped.length) sentences.push(`Suites not run: ${report.suitesSkipped.map((s) => s.replace(/_/g, " ")).join(", ")}; their checks say nothing about this data.`);
    if (report.unreadable.length) sentences.push(`${report.unreadable.length} part(s) of the artifact were not recognized and were skipped.`);
    const evidence: Evidence[] = [
      ...[...errored, ...notApplicable].map((o) => ({ ...outcomeEvidence(this.info.rule, o), text: `${checkLabel(o)} ${o.notApplicable ? "does not apply" : o.status === "skipped" ? "was skipped" : "errored"}: ${o.message}` })),
      ...report.suitesSkipped.map((s) => ({ rule_id: this.info.rule, artifact: `${report.field}.config.${s}`, text: `Suite "${s}" was switched off (config.${s} = false).`, observed: false })),
      ...report.unreadable.map((u) => ({ rule_id: this.info.rule, artifact: u.path, text: `Skipped: ${u.reason}.` })),
    ];
    return [
      detectorFinding({
        id: this.info.id,
        title: "Some checks did not run or do not apply",
        description: sentences.join(" "),
        evidence: evidence.slice(0, 10),
        severity: "info",
        confidence: 0.9,
        recommendation: {
          action: `${errored.length ? "Fix the checks that errored, " : ""}${report.suitesSkipped.length ? `run the ${report.suitesSkipped.map((s) => s.replace(/_/g, " ")).join(" and ")} suite(s), ` : ""}and drop checks that do not apply to the task so the report covers what it claims.`,
          rationale: "A check that did not run gives no assurance; a suite that was not run leaves its failure modes unchecked (Breck et al. 2017).",
          category: "infrastructure",
          effort: "low",
        },
      }),
    ];
  },
};
