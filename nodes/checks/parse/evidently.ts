import { clip, isRecord, type JsonRecord, toFinite, toText } from "../../../artifacts/json-values.js";
import type { CheckCategory, CheckDetail, CheckOutcome, CheckStatus, RowCount, StatedFacts } from "../model.js";
import { emptyStated, statedColumn } from "./stated.js";

export interface EvidentlyRead {
  outcomes: CheckOutcome[];
  rowCounts: RowCount[];
  format: string;
  stated: StatedFacts;
}

const TEST_STATUS: Record<string, CheckStatus> = { success: "pass", fail: "fail", warning: "warn", error: "error", skipped: "skipped" };

/** Whether a report is an Evidently report: legacy `{metrics: [{metric, result}]}` / test suite, or current `{metrics: [{id, metric_id | metric_name, value}]}`. */
export function isEvidentlyReport(v: unknown): v is JsonRecord {
  if (!isRecord(v)) return false;
  const metrics = Array.isArray(v.metrics) ? v.metrics.filter(isRecord) : [];
  if (metrics.some((m) => typeof m.metric === "string" && "result" in m)) return true;
  if (metrics.some((m) => (typeof m.metric_id === "string" || typeof m.metric_name === "string") && "value" in m)) return true;
  const tests = Array.isArray(v.tests) ? v.tests.filter(isRecord) : [];
  return tests.length > 0 && tests.every((t) => typeof t.status === "string" && typeof t.name === "string");
}

/** "ValueDrift(column=age,method=K-S p_value,threshold=0.05)" → type and params (brackets respected). */
export function parseMetricName(name: string): { type: string; params: Record<string, string> } {
  const open = name.indexOf("(");
  if (open < 0 || !name.endsWith(")")) return { type: name, params: {} };
  const params: Record<string, string> = {};
  let depth = 0;
  let part = "";
  const flush = () => {
    const eq = part.indexOf("=");
    if (eq > 0) params[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
    part = "";
  };
  for (const ch of name.slice(open + 1, -1)) {
    if ("([{".includes(ch)) depth++;
    if (")]}".includes(ch)) depth--;
    if (ch === "," && depth === 0) flush();
    else part += ch;
  }
  flush();
  return { type: name.slice(0, open), params };
}

/** For p-value tests a low score means drift; for distances a high one (FORMATS.md §3.3). */
function driftDetected(score: number, method: string | undefined, threshold: number): boolean {
  return method && /p_value|p-value/i.test(method) ? score <= threshold : score >= threshold;
}

const INTEGRITY_METRICS = /Missing|Duplicated|Constant|Empty|AlmostConstant|AlmostDuplicated|Null/i;
const MODEL_METRICS = /Accuracy|Precision|Recall|F1|RocAuc|LogLoss|MAE|RMSE|MSE|MAPE|R2|TPR|TNR|FPR|FNR|Lift|Gain/;

function metricCategory(type: string): CheckCategory {
  if (type === "ValueDrift" || type === "ColumnDriftMetric") return "feature_drift";
  if (/DriftedColumns|DatasetDrift/.test(type)) return "dataset_drift";
  if (INTEGRITY_METRICS.test(type)) return "integrity";
  if (MODEL_METRICS.test(type)) return "model_eval";
  return "other";
}

function testCategory(name: string, group: string | null): CheckCategory {
  const text = `${group ?? ""} ${name}`.toLowerCase();
  if (/share of drifted|number of drifted|dataset drift/.test(text)) return "dataset_drift";
  if (/target|label|prediction/.test(text) && /drift/.test(text)) return /prediction/.test(text) ? "prediction_drift" : "label_drift";
  if (/drift/.test(text)) return "feature_drift";
  if (/column type|schema|number of columns/.test(text)) return "schema";
  if (/missing|null|duplicat|constant|empty|integrity|quality|range|out of|unique/.test(text)) return "integrity";
  if (/classification|regression|accuracy|precision|recall|f1|roc|auc|error|rmse|mae/.test(text)) return "model_eval";
  return "other";
}

/** Current API (0.6/0.7): metrics keyed by `id`, with tests linked through `metric_config.metric_id`. */
function readCurrent(report: JsonRecord, path: string): EvidentlyRead {
  const metrics = (Array.isArray(report.metrics) ? report.metrics : []).filter(isRecord);
  const tests = (Array.isArray(report.tests) ? report.tests : []).filter(isRecord);
  const testsByMetric = new Map<string, JsonRecord[]>();
  const unlinked: Array<[JsonRecord, number]> = [];
  tests.forEach((t, i) => {
    const id = isRecord(t.metric_config) ? toText(t.metric_config.metric_id) : null;
    if (id) testsByMetric.set(id, [...(testsByMetric.get(id) ?? []), t]);
    else unlinked.push([t, i]);
  });
  const outcomes: CheckOutcome[] = [];
  const rowCounts: RowCount[] = [];
  const drift: CheckDetail[] = [];
  const stated = emptyStated();
  metrics.forEach((m, i) => {
    const label = toText(m.metric_name) ?? toText(m.metric_id) ?? "metric";
    const parsed = parseMetricName(label);
    const config = isRecord(m.config) ? m.config : {};
    const param = (k: string) => toText(config[k]) ?? parsed.params[k] ?? null;
    const type = parsed.type;
    const category = metricCategory(type);
    const linked = testsByMetric.get(toText(m.id) ?? "") ?? [];
    const testStatus = worstStatus(linked.map((t) => TEST_STATUS[String(t.status).toLowerCase()] ?? "error"));
    const mPath = `${path}.metrics[${i}]`;
    const value = m.value;
    if (type === "RowCount") {
      const rows = toFinite(value);
      if (rows !== null) rowCounts.push({ role: "test", rows, source: mPath });
    }
    const column = param("column");
    // Metrics without a test are facts without a verdict: kept for the dataset thresholds.
    if (!linked.length) {
      if (type === "MissingValueCount" && column && isRecord(value)) Object.assign(statedColumn(stated, column, mPath), { missing: toFinite(value.count), missingFraction: toFinite(value.share) });
      if (type === "UniqueValueCount" && column && isRecord(value) && isRecord(value.counts)) {
        const counts = Object.values(value.counts).map(toFinite).filter((n): n is number => n !== null);
        statedColumn(stated, column, mPath).unique = counts.length;
      }
      if (type === "StdValue" && column) statedColumn(stated, column, mPath).std = toFinite(value);
    }
    const threshold = toFinite(config.threshold ?? config.drift_share ?? parsed.params.threshold ?? parsed.params.drift_share);
    const observed = isRecord(value) ? toFinite(value.share ?? value.count) : toFinite(value);
    if (type === "ValueDrift" && observed !== null) {
      const method = param("method") ?? undefined;
      const flagged = testStatus ? testStatus === "fail" || testStatus === "warn" : threshold !== null && driftDetected(observed, method, threshold);
      drift.push({ name: column ?? label, score: observed, threshold, flagged, ...(method ? { method } : {}) });
    }
    const status: CheckStatus = testStatus ?? (type === "DriftedColumnsCount" && observed !== null && threshold !== null ? (observed >= threshold ? "fail" : "pass") : type === "ValueDrift" ? (drift.at(-1)?.flagged ? "fail" : "pass") : "none");
    const message = linked.map((t) => toText(t.description)).filter(Boolean).join(" | ");
    outcomes.push({
      // "ValueDrift(column=age,method=…,threshold=…)" reads as "ValueDrift(age)"; method and threshold are kept as fields.
      tool: "evidently", report: null, name: column ? `${type}(${column})` : type, condition: linked.map((t) => toText(t.name)).filter(Boolean).join(" | ") || null,
      category, status, message: clip(message, 400), observed, threshold, columns: column ? [column] : [], details: [],
      values: isRecord(value) && toFinite(value.count) !== null ? { count: toFinite(value.count)! } : {}, notApplicable: false, path: mPath,
    });
  });
  for (const [t, i] of unlinked) outcomes.push(readTest(t, `${path}.tests[${i}]`));
  // Per-column drift as details of the dataset-level count, so detectors see which columns drifted.
  const count = outcomes.find((o) => o.category === "dataset_drift");
  if (count) count.details = drift;
  const rows = rowCounts[0]?.rows ?? null;
  for (const c of stated.columns) c.rows ??= rows;
  const dup = outcomes.find((o) => o.name === "DuplicatedRowCount" && o.status === "none" && o.observed !== null);
  if (dup) {
    stated.duplicates = { count: dup.observed, fraction: rows ? dup.observed! / rows : null, path: dup.path };
  }
  return { outcomes, rowCounts, format: "Evidently snapshot (0.6/0.7 API)", stated };
}

function worstStatus(statuses: CheckStatus[]): CheckStatus | null {
  for (const s of ["error", "fail", "warn", "skipped", "pass"] as const) if (statuses.includes(s)) return s;
  return null;
}

/** The bound of a legacy test condition `{lte: 0.1}` or `{eq: {value: 3000, relative: 0.1}}`. */
function conditionBound(condition: unknown): number | null {
  if (!isRecord(condition)) return null;
  for (const key of ["lte", "lt", "gte", "gt", "eq", "not_eq"]) {
    const v = condition[key];
    const n = isRecord(v) ? toFinite(v.value) : toFinite(v);
    if (n !== null) return n;
  }
  return null;
}

/** A test record `{name, description, status, group?, parameters?}` (legacy TestSuite or a current unlinked test). */
function readTest(t: JsonRecord, path: string): CheckOutcome {
  const name = toText(t.name) ?? "unnamed test";
  const description = toText(t.description) ?? "";
  const params = isRecord(t.parameters) ? t.parameters : {};
  const column = toText(params.column_name) ?? /\*\*([^*]+)\*\*/.exec(description)?.[1] ?? /column ([\w.-]+)/i.exec(name)?.[1] ?? null;
  return {
    tool: "evidently", report: null, name, condition: name, category: testCategory(name, toText(t.group)),
    status: TEST_STATUS[String(t.status).toLowerCase()] ?? "error", message: clip(description, 400),
    observed: toFinite(params.value), threshold: conditionBound(params.condition), columns: column ? [column] : [], details: [], values: {}, notApplicable: false, path,
  };
}

function columnDrift(name: string, r: JsonRecord): CheckDetail {
  const method = toText(r.stattest_name) ?? undefined;
  return { name: toText(r.column_name) ?? name, score: toFinite(r.drift_score), threshold: toFinite(r.stattest_threshold), flagged: r.drift_detected === true, ...(method ? { method } : {}) };
}

/** Legacy API (0.4.x, `evidently.legacy`): `{metrics: [{metric, result}]}` and test suites `{tests: [...]}`. */
function readLegacy(report: JsonRecord, path: string): EvidentlyRead {
  const outcomes: CheckOutcome[] = [];
  const rowCounts: RowCount[] = [];
  const stated = emptyStated();
  const metrics = (Array.isArray(report.metrics) ? report.metrics : []).filter(isRecord);
  metrics.forEach((m, i) => {
    const type = toText(m.metric) ?? "metric";
    const r = isRecord(m.result) ? m.result : {};
    const mPath = `${path}.metrics[${i}].result`;
    const base = { tool: "evidently" as const, report: null, name: type, condition: null, message: "", columns: [] as string[], details: [] as CheckDetail[], values: {} as Record<string, number>, notApplicable: false, path: mPath };
    if (type === "DatasetDriftMetric" || type === "DataDriftTable") {
      const byColumn = isRecord(r.drift_by_columns) ? Object.entries(r.drift_by_columns).flatMap(([k, v]) => (isRecord(v) ? [columnDrift(k, v)] : [])) : [];
      outcomes.push({
        ...base, category: "dataset_drift", status: r.dataset_drift === true ? "fail" : r.dataset_drift === false ? "pass" : "none",
        observed: toFinite(r.share_of_drifted_columns), threshold: toFinite(r.drift_share), details: byColumn,
        columns: byColumn.filter((d) => d.flagged).map((d) => d.name),
        message: `${toFinite(r.number_of_drifted_columns) ?? "?"} of ${toFinite(r.number_of_columns) ?? "?"} columns drifted.`,
        values: Object.fromEntries(
          [["count", toFinite(r.number_of_drifted_columns)], ["columns", toFinite(r.number_of_columns)]].filter((e): e is [string, number] => e[1] !== null),
        ),
      });
    } else if (type === "ColumnDriftMetric") {
      const d = columnDrift(type, r);
      outcomes.push({ ...base, category: "feature_drift", status: r.drift_detected === true ? "fail" : "pass", observed: d.score, threshold: d.threshold, details: [d], columns: [d.name] });
    } else if (type === "DatasetSummaryMetric") {
      for (const [role, key] of [["train", "reference"], ["test", "current"]] as const) {
        const part = isRecord(r[key]) ? (r[key] as JsonRecord) : null;
        const rows = part ? toFinite(part.number_of_rows) : null;
        if (rows !== null) rowCounts.push({ role, rows, source: `${mPath}.${key}` });
      }
      if (isRecord(r.current)) readLegacySummary(r.current, `${mPath}.current`, stated);
    } else {
      outcomes.push({ ...base, category: metricCategory(type), status: "none", observed: null, threshold: null });
    }
  });
  const tests = (Array.isArray(report.tests) ? report.tests : []).filter(isRecord);
  tests.forEach((t, i) => outcomes.push(readTest(t, `${path}.tests[${i}]`)));
  return { outcomes, rowCounts, stated, format: `Evidently ${metrics.length ? "report" : "test suite"} (legacy API${toText(report.version) ? ` ${toText(report.version)}` : ""})` };
}

/** A legacy DatasetSummaryMetric's current-data summary: the target, duplicated rows, nulls and distinct values per column. */
function readLegacySummary(s: JsonRecord, path: string, stated: StatedFacts): void {
  const rows = toFinite(s.number_of_rows);
  stated.target = toText(s.target);
  const duplicated = toFinite(s.number_of_duplicated_rows);
  if (duplicated !== null) stated.duplicates = { count: duplicated, fraction: rows ? duplicated / rows : null, path: `${path}.number_of_duplicated_rows` };
  for (const [key, field] of [["nans_by_columns", "missing"], ["number_uniques_by_columns", "unique"]] as const) {
    if (!isRecord(s[key])) continue;
    for (const [name, v] of Object.entries(s[key])) {
      const n = toFinite(v);
      if (n === null) continue;
      const c = statedColumn(stated, name, `${path}.${key}`);
      c.rows = rows;
      c[field] = n;
      if (field === "missing" && rows) c.missingFraction = n / rows;
    }
  }
}

/** Reads an Evidently report of either API. */
export function readEvidentlyReport(report: JsonRecord, path: string): EvidentlyRead {
  const metrics = (Array.isArray(report.metrics) ? report.metrics : []).filter(isRecord);
  const current = metrics.some((m) => typeof m.metric_id === "string" || typeof m.metric_name === "string");
  return current ? readCurrent(report, path) : readLegacy(report, path);
}
