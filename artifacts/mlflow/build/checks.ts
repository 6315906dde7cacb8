import { isRecord } from "../../json-values.js";
import type { SniffedDocument } from "./sniffed.js";

/**
 * Builds `checks_artifacts` from the run's reports (Deepchecks, Evidently, Great Expectations JSON, in path
 * order), generic check lists and the legacy client's Deepchecks suite map. A lone suite map is passed as is,
 * in the legacy shape the original client sent; a `checks_artifacts.json` payload is the base.
 */
export function buildChecks(docs: readonly SniffedDocument[]): Record<string, unknown> | null {
  const mine = docs.filter((d) => d.sniffed.kind === "checks");
  if (mine.length === 0) return null;
  const base = mine.find((d) => d.sniffed.as === "payload")?.doc.value;
  const reports = mine.filter((d) => d.sniffed.as === "report" || d.sniffed.as === "legacy_suite_map").map((d) => d.doc.value);
  const checks = mine.filter((d) => d.sniffed.as === "checks_list").flatMap((d) => d.doc.value as unknown[]);
  const out: Record<string, unknown> = isRecord(base) ? { ...base } : {};
  if (!isRecord(base) && reports.length === 1 && checks.length === 0 && mine[0]?.sniffed.as === "legacy_suite_map") {
    return { ...(reports[0] as Record<string, unknown>) };
  }
  if (reports.length > 0) out.reports = [...(Array.isArray(out.reports) ? out.reports : []), ...reports];
  if (checks.length > 0) out.checks = [...(Array.isArray(out.checks) ? out.checks : []), ...checks];
  return out;
}
