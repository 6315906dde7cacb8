import { decodeJsonString, isRecord, type JsonRecord, toText } from "../../artifacts/json-values.js";
import type { ChecksReport, CheckTool, ReportSummary } from "./model.js";
import { isDeepchecksResult, isDeepchecksSuite, readDeepchecksResult, readDeepchecksSuite } from "./parse/deepchecks.js";
import { isEvidentlyReport, readEvidentlyReport } from "./parse/evidently.js";
import { isGenericCheck, readGenericCheck } from "./parse/generic.js";
import { isGreatExpectationsResult, readGreatExpectations } from "./parse/great-expectations.js";
import { isLegacySuiteMap, readLegacySuiteMap } from "./parse/legacy-suite-map.js";
import { emptyStated, mergeStated } from "./parse/stated.js";
import { isTfdvAnomalies, readTfdvAnomalies } from "./parse/tfdv.js";

export type { ChecksReport } from "./model.js";

function emptyReport(field: string, requestDatasetName: string | null): ChecksReport {
  return { field, outcomes: [], reports: [], reportDatasetName: null, requestDatasetName, suitesSkipped: [], rowCounts: [], columnSets: [], unreadable: [], stated: emptyStated() };
}

function summary(tool: CheckTool, format: string, name: string | null, path: string): ReportSummary {
  return { tool, format, name, path };
}

/**
 * Reads one report, telling the format apart by content; returns false when it is none this analyzer knows. A
 * report sent as the JSON text its tool returned (Deepchecks `to_json()`) is decoded first.
 */
function readReport(raw: unknown, path: string, into: ChecksReport): boolean {
  const v = decodeJsonString(raw);
  if (isLegacySuiteMap(v)) {
    const r = readLegacySuiteMap(v, path);
    into.outcomes.push(...r.outcomes);
    into.rowCounts.push(...r.rowCounts);
    mergeStated(into.stated, r.stated);
    into.suitesSkipped.push(...r.skipped);
    into.reportDatasetName ??= r.datasetName;
    into.reports.push(summary("deepchecks", `legacy Deepchecks suite map (${r.suites.join(", ")})`, r.datasetName, `${path}.results`));
    return true;
  }
  if (isDeepchecksSuite(v)) {
    const r = readDeepchecksSuite(v, path);
    into.outcomes.push(...r.outcomes);
    into.rowCounts.push(...r.rowCounts);
    mergeStated(into.stated, r.stated);
    into.reports.push(summary("deepchecks", "Deepchecks SuiteResult", toText(v.name), path));
    return true;
  }
  if (isDeepchecksResult(v)) {
    const r = readDeepchecksResult(v, null, path);
    into.outcomes.push(...r.outcomes);
    into.rowCounts.push(...r.rowCounts);
    mergeStated(into.stated, r.stated);
    into.reports.push(summary("deepchecks", `Deepchecks ${v.type === "CheckFailure" ? "CheckFailure" : "CheckResult"}`, r.outcomes[0]?.name ?? null, path));
    return true;
  }
  if (isEvidentlyReport(v)) {
    const r = readEvidentlyReport(v, path);
    into.outcomes.push(...r.outcomes);
    into.rowCounts.push(...r.rowCounts);
    mergeStated(into.stated, r.stated);
    into.reports.push(summary("evidently", r.format, null, path));
    return true;
  }
  if (isGreatExpectationsResult(v)) {
    const r = readGreatExpectations(v, path);
    into.outcomes.push(...r.outcomes);
    into.rowCounts.push(...r.rowCounts);
    into.columnSets.push(...r.columnSets);
    into.reports.push(summary("great_expectations", r.format, r.suite, path));
    return true;
  }
  if (isTfdvAnomalies(v)) {
    into.outcomes.push(...readTfdvAnomalies(v, path));
    into.reports.push(summary("tfdv", "TFDV anomalies", null, path));
    return true;
  }
  if (isGenericCheck(v)) return readCheck(v, path, into);
  return false;
}

function readCheck(v: JsonRecord, path: string, into: ChecksReport): boolean {
  const o = readGenericCheck(v, path);
  if ("unreadable" in o) into.unreadable.push({ path, reason: o.unreadable });
  else into.outcomes.push(o);
  return true;
}

function keysOf(raw: unknown): string {
  const v = decodeJsonString(raw);
  return isRecord(v) ? Object.keys(v).slice(0, 6).join(", ") || "no keys" : Array.isArray(v) ? "an array" : typeof v === "string" ? "text that is not a JSON object" : typeof v;
}

/**
 * Normalizes `checks_artifacts` (current `{reports, checks}`, the legacy Deepchecks suite map, or a single report
 * sent as the artifact itself) into one list of check outcomes. Parts that are not a known format are recorded
 * as unreadable; throws only when nothing at all could be read.
 */
export function parseChecksArtifact(payload: Record<string, unknown>, field = "checks_artifacts", requestDatasetName: string | null = null): ChecksReport {
  const report = emptyReport(field, requestDatasetName);
  const reports = Array.isArray(payload.reports) ? payload.reports : [];
  const checks = Array.isArray(payload.checks) ? payload.checks : [];
  reports.forEach((r, i) => {
    const path = `${field}.reports[${i}]`;
    if (!readReport(r, path, report)) report.unreadable.push({ path, reason: `not a Deepchecks, Evidently, Great Expectations or TFDV report (keys: ${keysOf(r)})` });
  });
  checks.forEach((c, i) => {
    const path = `${field}.checks[${i}]`;
    if (isGenericCheck(c)) readCheck(c, path, report);
    else if (!readReport(c, path, report)) report.unreadable.push({ path, reason: `not a check record {name, status} (keys: ${keysOf(c)})` });
  });
  if (checks.length) report.reports.push(summary("generic", "generic check records", null, `${field}.checks`));
  if (reports.length === 0 && checks.length === 0 && !readReport(payload, field, report)) {
    throw new Error(`${field}: no reports or checks found (keys: ${keysOf(payload)}); expected reports[], checks[] or a Deepchecks suite map`);
  }
  if (report.outcomes.length === 0) {
    const why = report.unreadable.map((u) => `${u.path}: ${u.reason}`).join("; ");
    throw new Error(`${field}: no check results could be read${why ? ` (${why})` : " (the reports are empty)"}`);
  }
  return report;
}
