import { type Evidence, type Finding, SEVERITIES, type Severity, severityRank } from "../../domain/result.js";
import type { DetectorInfo } from "../catalog.js";
import { clip, fmt, pct } from "../../artifacts/json-values.js";
import type { CheckCategory, CheckOutcome, ChecksReport, CheckTool } from "./model.js";

/** A check-report detector: its catalog record and a pure function from the normalized report to findings. */
export interface ChecksDetector {
  info: DetectorInfo;
  detect(report: ChecksReport): Finding[];
}

const TOOL_NAMES: Record<CheckTool, string> = {
  deepchecks: "Deepchecks",
  evidently: "Evidently",
  great_expectations: "Great Expectations",
  tfdv: "TFDV",
  generic: "Check",
};

/** One level lower (a WARN is one level below its FAIL, CR-01). */
export function lowerSeverity(s: Severity): Severity {
  return SEVERITIES[Math.min(severityRank(s) + 1, SEVERITIES.length - 1)]!;
}

/** The most severe of several severities. */
export function worstSeverity(list: readonly Severity[]): Severity {
  return SEVERITIES.find((s) => list.includes(s)) ?? "info";
}

/** Outcomes of a category whose status is FAIL or WARN (checks that do not apply are never faults). */
export function flagged(report: ChecksReport, ...categories: CheckCategory[]): CheckOutcome[] {
  return report.outcomes.filter((o) => categories.includes(o.category) && (o.status === "fail" || o.status === "warn") && !o.notApplicable);
}

/**
 * Flagged outcomes of a category plus Deepchecks checks that ran without a condition (status "none") whose
 * number crosses the catalog's default threshold: those count as failing, and the evidence says so.
 */
export function flaggedOrOverDefault(report: ChecksReport, category: CheckCategory, threshold: number): CheckOutcome[] {
  const overDefault = report.outcomes.filter((o) => o.category === category && o.tool === "deepchecks" && o.status === "none" && o.observed !== null && o.observed >= threshold);
  return [...flagged(report, category), ...overDefault];
}

/** The outcome a description leads with: the first that failed (or crossed a catalog default), else the first. */
export function leadOutcome(outcomes: readonly CheckOutcome[]): CheckOutcome | undefined {
  return outcomes.find((o) => o.status !== "warn") ?? outcomes[0];
}

/** The upper severity when any outcome failed (or crossed a catalog default without a verdict), else the lower. */
export function severityByStatus(outcomes: readonly CheckOutcome[], whenFailed: Severity, whenWarned: Severity): Severity {
  return outcomes.some((o) => o.status !== "warn") ? whenFailed : whenWarned;
}

/** "failed" / "warned" for descriptions. */
export function verdictWord(o: CheckOutcome): string {
  return o.status === "warn" ? "warned" : "failed";
}

/** "Deepchecks "Label Drift"" / "Check "missing_values"" for descriptions. */
export function checkLabel(o: CheckOutcome): string {
  return `${TOOL_NAMES[o.tool]} "${o.name}"`;
}

/**
 * Evidence for one outcome, numbers first so it reads well on its own: status, observed value against the
 * report's own threshold (or the catalog default), flagged columns, then the condition and the tool's message.
 */
export function outcomeEvidence(rule: string, o: CheckOutcome, catalogThreshold?: number): Evidence {
  const threshold = o.threshold ?? catalogThreshold ?? null;
  const status = o.status === "none" ? "ran without a condition" : o.status.toUpperCase();
  // A share of rows reads as the descriptions quote it: a percentage.
  const quote = (n: number) => (o.share ? pct(n, 2) : fmt(n));
  const against = threshold !== null ? ` against ${o.threshold === null ? "the catalog default " : ""}${quote(threshold)}` : "";
  const auc = o.values.domain_classifier_auc !== undefined ? ` (domain classifier AUC ${fmt(o.values.domain_classifier_auc)})` : "";
  const numbers = o.observed !== null ? `: ${quote(o.observed)}${against}${auc}` : "";
  const flaggedDetails = o.details.filter((d) => d.flagged).slice(0, 5);
  const detailText = flaggedDetails.length ? ` Flagged: ${flaggedDetails.map((d) => `${d.name}${d.subject ? ` (${d.subject})` : ""}${d.score !== null ? ` ${fmt(d.score)}` : ""}`).join(", ")}.` : "";
  const condition = o.condition && o.condition !== o.name ? ` Condition: ${o.condition}.` : "";
  const message = o.message ? ` ${clip(o.message.replace(/\s+/g, " "), 200)}` : "";
  const declared = o.declaredSeverity ? ` The suite's own severity for it puts it at ${o.declaredSeverity}.` : "";
  return {
    rule_id: rule,
    artifact: o.path,
    text: `${checkLabel(o)} ${status}${numbers}.${detailText}${condition}${declared}${message}`,
    observed: o.observed ?? o.status,
    threshold,
    values: { check: o.name, status: o.status, tool: o.tool, ...(o.report ? { suite: o.report } : {}), ...(o.declaredSeverity ? { declared_severity: o.declaredSeverity } : {}), ...o.values },
  };
}

/** Names of flagged columns/properties of the outcomes, each once, in order. */
export function flaggedNames(outcomes: readonly CheckOutcome[]): string[] {
  return [...new Set(outcomes.flatMap((o) => [...o.columns, ...o.details.filter((d) => d.flagged).map((d) => d.name)]))];
}
