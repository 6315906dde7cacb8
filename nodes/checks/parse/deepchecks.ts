import { clip, decodeJsonString, isRecord, type JsonRecord, toText } from "../../../artifacts/json-values.js";
import type { CheckOutcome, CheckStatus, RowCount, StatedFacts } from "../model.js";
import { conditionThreshold } from "./conditions.js";
import { deepchecksCategory, normalizeCheckName, saysNotApplicable } from "./deepchecks-catalog.js";
import { readDeepchecksStated } from "./deepchecks-stated.js";
import { readDeepchecksValue } from "./deepchecks-values.js";
import { emptyStated, mergeStated } from "./stated.js";

const STATUS: Record<string, CheckStatus> = { pass: "pass", warn: "warn", fail: "fail", error: "error" };

/** Checks whose value is a share of rows (mixed into test, duplicated, conflicting). */
const ROW_SHARE_CHECKS = /samples mix|data duplicates|conflicting labels|date train test leakage/;

/** What reading one Deepchecks result yields. */
export interface DeepchecksRead {
  outcomes: CheckOutcome[];
  rowCounts: RowCount[];
  /** Data facts checks state without a verdict. */
  stated: StatedFacts;
}

/** Whether an object is a Deepchecks CheckResult or CheckFailure (`to_json()` output). */
export function isDeepchecksResult(v: unknown): v is JsonRecord {
  if (!isRecord(v)) return false;
  return v.type === "CheckResult" || v.type === "CheckFailure" || (isRecord(v.check) && (Array.isArray(v.conditions_results) || "exception" in v));
}

/** Whether an object is a Deepchecks SuiteResult. */
export function isDeepchecksSuite(v: unknown): v is JsonRecord {
  return isRecord(v) && Array.isArray(v.results) && (v.type === "SuiteResult" || (v.results.length > 0 && v.results.every(isDeepchecksResult)));
}

function checkName(r: JsonRecord): string {
  const check = isRecord(r.check) ? r.check : {};
  return toText(check.name) ?? toText(r.header) ?? "unnamed check";
}

/** "42.17% (5216 / 12368)" in a message → the counts behind a share. */
function rowFraction(text: string): Record<string, number> {
  const m = /\((\d[\d,]*)\s*\/\s*(\d[\d,]*)\)/.exec(text);
  if (!m?.[1] || !m[2]) return {};
  return { matched_rows: Number(m[1].replace(/,/g, "")), total_rows: Number(m[2].replace(/,/g, "")) };
}

/** A CheckFailure: the check did not run. Not applicable to the task → a coverage note; otherwise an error. */
function readFailure(r: JsonRecord, report: string | null, path: string): CheckOutcome {
  const exception = toText(r.exception) ?? "no exception text";
  const name = checkName(r);
  return {
    tool: "deepchecks", report, name, condition: null, category: deepchecksCategory(name, null), status: "error",
    message: clip(exception, 400), observed: null, threshold: null, columns: [], details: [], values: {}, notApplicable: saysNotApplicable(exception), path,
  };
}

/**
 * One outcome per condition of a CheckResult (status, condition text and its threshold, More Info), each with
 * the numbers read from the check's value; a result without conditions gives one outcome with status "none".
 */
export function readDeepchecksResult(raw: unknown, report: string | null, path: string, extraText: string | null = null): DeepchecksRead {
  const r = decodeJsonString(raw);
  const stated = emptyStated();
  if (!isRecord(r)) return { outcomes: [], rowCounts: [], stated };
  if (r.type === "CheckFailure" || ("exception" in r && !("conditions_results" in r))) return { outcomes: [readFailure(r, report, path)], rowCounts: [], stated };
  const name = checkName(r);
  const key = normalizeCheckName(name);
  const conditions = (Array.isArray(r.conditions_results) ? r.conditions_results : []).filter(isRecord);
  const rowCounts: RowCount[] = [];
  const verdicts = conditions.length ? conditions : [null];
  const outcomes = verdicts.map((c): CheckOutcome => {
    const condition = c ? toText(c.Condition) : null;
    const moreInfo = c ? toText(c["More Info"]) : null;
    const category = deepchecksCategory(name, condition);
    const threshold = conditionThreshold(condition);
    const reading = readDeepchecksValue(key, category, r.value, condition, threshold, moreInfo);
    if (reading.rowCounts && rowCounts.length === 0) {
      for (const role of ["train", "test"] as const) {
        const rows = reading.rowCounts[role];
        if (rows !== undefined) rowCounts.push({ role, rows, source: `${path}.value` });
      }
    }
    const status = c ? STATUS[String(c.Status ?? "").toLowerCase()] ?? "error" : "none";
    const message = [moreInfo, extraText].filter(Boolean).join(" | ");
    return {
      ...(ROW_SHARE_CHECKS.test(key) && reading.observed !== null ? { share: true } : {}),
      tool: "deepchecks", report, name, condition, category, status,
      message: clip(message, 400),
      observed: reading.observed, threshold, columns: reading.details.filter((d) => d.flagged).map((d) => d.name),
      details: reading.details, values: { ...reading.values, ...rowFraction(message) }, notApplicable: false, path,
    };
  });
  readDeepchecksStated(key, r.value, conditions.length > 0, `${path}.value`, stated);
  return { outcomes, rowCounts, stated };
}

/** A SuiteResult `{name, results: [CheckResult | CheckFailure], type: "SuiteResult"}`. */
export function readDeepchecksSuite(suite: JsonRecord, path: string): DeepchecksRead {
  const name = toText(suite.name);
  const reads = (suite.results as unknown[]).map((r, i) => readDeepchecksResult(r, name, `${path}.results[${i}]`));
  const stated = emptyStated();
  for (const r of reads) mergeStated(stated, r.stated);
  return { outcomes: reads.flatMap((r) => r.outcomes), rowCounts: reads.flatMap((r) => r.rowCounts), stated };
}
