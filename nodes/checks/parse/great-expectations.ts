import { clip, isRecord, type JsonRecord, toFinite, toText } from "../../../artifacts/json-values.js";
import type { Severity } from "../../../domain/result.js";
import type { CheckCategory, CheckOutcome, CheckStatus, RowCount } from "../model.js";

export interface GreatExpectationsRead {
  outcomes: CheckOutcome[];
  rowCounts: RowCount[];
  columnSets: Array<{ source: string; columns: string[]; complete: boolean }>;
  format: string;
  suite: string | null;
}

/**
 * A validation result (0.18 / 1.x, `to_json_dict()` or the compact `describe_dict()`), a CheckpointResult
 * describe_dict, or a checkpoint result with run_results.
 */
export function isGreatExpectationsResult(v: unknown): v is JsonRecord {
  if (!isRecord(v)) return false;
  if (Array.isArray(v.results) && v.results.some((r) => isRecord(r) && isRecord(r.expectation_config))) return true;
  if (Array.isArray(v.expectations) && "success" in v && v.expectations.some((r) => isRecord(r) && typeof r.expectation_type === "string" && "success" in r)) return true;
  if (Array.isArray(v.validation_results)) return true;
  return isRecord(v.run_results) && "success" in v;
}

/** Expectation type → what it checks (CR-07's mapping: null → integrity, range/set → integrity, schema, distribution → drift). */
function expectationCategory(type: string): CheckCategory {
  if (/table_columns|column_to_exist|of_type|in_type_list|table_column_count/.test(type)) return "schema";
  if (/kl_divergence|distribution|chisquare|ks_test|bootstrapped/.test(type)) return "feature_drift";
  return "expectation";
}

/** True when any exception record (flat or keyed by metric, as 1.x writes it) says an exception was raised. */
function raised(info: unknown): string | null {
  if (!isRecord(info)) return null;
  if (info.raised_exception === true) return toText(info.exception_message) ?? "exception raised";
  for (const v of Object.values(info)) {
    const inner = raised(v);
    if (inner) return inner;
  }
  return null;
}

function describeResult(type: string, column: string | null, result: JsonRecord, mostly: number | null): string {
  const pct = toFinite(result.unexpected_percent);
  const parts = [
    column ? `column "${column}"` : null,
    toFinite(result.unexpected_count) !== null ? `${toFinite(result.unexpected_count)} unexpected of ${toFinite(result.element_count) ?? "?"}` : null,
    pct !== null ? `${pct.toFixed(2)} % unexpected` : null,
    mostly !== null ? `mostly ${mostly}` : null,
    "observed_value" in result ? `observed ${clip(JSON.stringify(result.observed_value), 120)}` : null,
  ].filter(Boolean);
  return `${type}: ${parts.join(", ")}`;
}

/** Counts a result states (element, unexpected and missing counts). */
function numbers(result: JsonRecord): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of ["element_count", "unexpected_count", "missing_count"]) {
    const n = toFinite(result[k]);
    if (n !== null) out[k] = n;
  }
  return out;
}

/** GE 1.x `FailureSeverity` values (and the same words in `meta.severity`) mapped to ours. */
const DECLARED: Record<string, Severity> = { critical: "critical", warning: "medium", info: "info" };

function configOf(r: JsonRecord): JsonRecord {
  return isRecord(r.expectation_config) ? r.expectation_config : r;
}

/** The severity an expectation declares: its `severity` field (1.x) or, as users wrote it before, `meta.severity`. */
function declaredSeverity(config: JsonRecord): Severity | null {
  const meta = isRecord(config.meta) ? toText(config.meta.severity)?.toLowerCase() : undefined;
  const word = toText(config.severity)?.toLowerCase() ?? meta;
  return (word && DECLARED[word]) || null;
}

/**
 * GE 1.x gives every expectation `severity: "critical"` unless told otherwise, so a suite where all of them say
 * critical (and none has a meta.severity) carries the default, not a choice: those are not declared severities.
 */
function onlyDefaultSeverities(list: readonly JsonRecord[]): boolean {
  const configs = list.map(configOf);
  return configs.length > 0 && configs.every((c) => toText(c.severity)?.toLowerCase() === "critical" && !(isRecord(c.meta) && "severity" in c.meta));
}

/** One expectation result: `{success, expectation_config: {type | expectation_type, kwargs}, result, exception_info}`. */
function readExpectation(r: JsonRecord, suite: string | null, path: string, severities: boolean): CheckOutcome {
  const config = configOf(r);
  const type = toText(config.type) ?? toText(config.expectation_type) ?? toText(r.expectation_type) ?? "expectation";
  const kwargs = isRecord(config.kwargs) ? config.kwargs : isRecord(r.kwargs) ? r.kwargs : {};
  const result = isRecord(r.result) ? r.result : {};
  const column = toText(kwargs.column);
  const mostly = toFinite(kwargs.mostly);
  const error = raised(r.exception_info);
  const status: CheckStatus = error ? "error" : r.success === true ? "pass" : r.success === false ? "fail" : "none";
  const unexpected = toFinite(result.unexpected_percent);
  const columns = column ? [column] : Array.isArray(kwargs.column_list) ? kwargs.column_list.map(String) : [];
  const declared = severities ? declaredSeverity(config) : null;
  return {
    ...(declared ? { declaredSeverity: declared } : {}),
    ...(unexpected !== null ? { share: true } : {}),
    tool: "great_expectations", report: suite, name: type, condition: null, category: expectationCategory(type), status,
    message: clip(error ?? describeResult(type, column, result, mostly), 400),
    observed: unexpected !== null ? unexpected / 100 : toFinite(result.observed_value),
    // `mostly` allows a share of unexpected values: an expectation within it passes (success true) and is no failure.
    threshold: mostly !== null ? Number((1 - mostly).toFixed(6)) : unexpected !== null ? 0 : null,
    columns, details: [], values: numbers(result), notApplicable: false, path,
  };
}

function readValidation(v: JsonRecord, path: string, into: GreatExpectationsRead): void {
  const meta = isRecord(v.meta) ? v.meta : {};
  const suite = toText(v.suite_name) ?? toText(meta.expectation_suite_name) ?? null;
  into.suite ??= suite;
  const list = Array.isArray(v.results) ? v.results : Array.isArray(v.expectations) ? v.expectations : [];
  const severities = !onlyDefaultSeverities(list.filter(isRecord));
  list.forEach((r, i) => {
    if (!isRecord(r)) return;
    const o = readExpectation(r, suite, `${path}.${Array.isArray(v.results) ? "results" : "expectations"}[${i}]`, severities);
    into.outcomes.push(o);
    const observed = isRecord(r.result) ? r.result.observed_value : undefined;
    if (o.name === "expect_table_row_count_to_be_between" || o.name === "expect_table_row_count_to_equal") {
      const rows = toFinite(observed);
      if (rows !== null) into.rowCounts.push({ role: "batch", rows, source: `${o.path}.result.observed_value` });
    }
    if (o.name === "expect_table_columns_to_match_set" || o.name === "expect_table_columns_to_match_ordered_list") {
      if (Array.isArray(observed)) into.columnSets.push({ source: `${o.path}.result.observed_value`, columns: observed.map(String), complete: true });
    }
  });
}

/**
 * Reads Great Expectations validation results, 0.18 (`expectation_config.expectation_type`,
 * `meta.expectation_suite_name`) and 1.x (`expectation_config.type`, `suite_name`), also inside checkpoint results.
 * `unexpected_percent` is 0–100 and becomes a fraction.
 */
export function readGreatExpectations(v: JsonRecord, path: string): GreatExpectationsRead {
  const into: GreatExpectationsRead = { outcomes: [], rowCounts: [], columnSets: [], format: "", suite: null };
  const meta = isRecord(v.meta) ? v.meta : {};
  const version = toText(meta.great_expectations_version);
  if (Array.isArray(v.validation_results)) {
    v.validation_results.forEach((r, i) => isRecord(r) && readValidation(r, `${path}.validation_results[${i}]`, into));
    into.format = "Great Expectations checkpoint result";
  } else if (isRecord(v.run_results)) {
    for (const [id, r] of Object.entries(v.run_results)) {
      const inner = isRecord(r) && isRecord(r.validation_result) ? r.validation_result : r;
      if (isRecord(inner)) readValidation(inner, `${path}.run_results["${id}"]`, into);
    }
    into.format = "Great Expectations checkpoint result";
  } else {
    readValidation(v, path, into);
    const major = version?.split(".")[0] ?? (toText(v.suite_name) ? "1" : "0");
    into.format = `Great Expectations ${major === "0" ? "0.x" : `${major}.x`} validation result${version ? ` (${version})` : ""}`;
  }
  return into;
}
