import { clip, isRecord, type JsonRecord, toText } from "../../../artifacts/json-values.js";
import type { CheckCategory, CheckOutcome, CheckStatus } from "../model.js";

/** TFDV's anomalies proto as JSON: lowerCamelCase (MessageToJson's default) or proto field names. */
function field(v: JsonRecord, camel: string, snake: string): unknown {
  return v[camel] ?? v[snake];
}

/** Whether a report is a TFDV `Anomalies` message (`anomalyInfo` / `anomaly_info`, `datasetAnomalyInfo`). */
export function isTfdvAnomalies(v: unknown): v is JsonRecord {
  return isRecord(v) && (isRecord(field(v, "anomalyInfo", "anomaly_info")) || isRecord(field(v, "datasetAnomalyInfo", "dataset_anomaly_info")));
}

/** Reason types by what they are about: drift/skew comparators, non-finite values, everything else is schema. */
function reasonCategory(types: readonly string[]): CheckCategory {
  if (types.some((t) => t.startsWith("COMPARATOR_"))) return "feature_drift";
  if (types.some((t) => /HAS_NAN|HAS_INF|LOW_FRACTION_PRESENT|LOW_NUMBER_PRESENT|NOT_PRESENT|VALUE_COUNT/.test(t))) return "integrity";
  return "schema";
}

const STATUS: Record<string, CheckStatus> = { ERROR: "fail", WARNING: "warn", UNKNOWN: "warn" };

/** "… is 0.27 (up to six significant digits), above the threshold 0.1." → the two numbers. */
function comparatorNumbers(text: string): { observed: number | null; threshold: number | null } {
  const observed = /\bis (-?\d*\.?\d+(?:e-?\d+)?)/.exec(text)?.[1];
  const threshold = /threshold (-?\d*\.?\d+(?:e-?\d+)?)/.exec(text)?.[1];
  return { observed: observed ? Number(observed) : null, threshold: threshold ? Number(threshold) : null };
}

function readInfo(feature: string | null, info: JsonRecord, path: string): CheckOutcome {
  const reasons = (Array.isArray(info.reason) ? info.reason : []).filter(isRecord);
  const types = reasons.map((r) => toText(r.type) ?? "UNKNOWN");
  const description = toText(info.description) ?? toText(field(info, "shortDescription", "short_description")) ?? "";
  const category = reasonCategory(types);
  const numbers = category === "feature_drift" ? comparatorNumbers(description) : { observed: null, threshold: null };
  return {
    tool: "tfdv", report: null, name: types.join(", ") || "anomaly", condition: toText(field(info, "shortDescription", "short_description")),
    category, status: STATUS[String(info.severity ?? "ERROR").toUpperCase()] ?? "fail", message: clip(description, 400),
    ...numbers, columns: feature ? [feature] : [], details: [], values: {}, notApplicable: false, path,
  };
}

/**
 * Reads a TFDV Anomalies message: one outcome per anomalous feature (ERROR → fail, WARNING → warn) plus the
 * dataset-level anomaly. An empty `anomalyInfo` means validation passed and yields one passing outcome.
 */
export function readTfdvAnomalies(v: JsonRecord, path: string): CheckOutcome[] {
  const perFeature = isRecord(field(v, "anomalyInfo", "anomaly_info")) ? (field(v, "anomalyInfo", "anomaly_info") as JsonRecord) : {};
  const key = "anomalyInfo" in v ? "anomalyInfo" : "anomaly_info";
  const outcomes = Object.entries(perFeature).flatMap(([feature, info]) => (isRecord(info) ? [readInfo(feature, info, `${path}.${key}.${feature}`)] : []));
  const dataset = field(v, "datasetAnomalyInfo", "dataset_anomaly_info");
  if (isRecord(dataset)) outcomes.push(readInfo(null, dataset, `${path}.${"datasetAnomalyInfo" in v ? "datasetAnomalyInfo" : "dataset_anomaly_info"}`));
  if (outcomes.length) return outcomes;
  return [{ tool: "tfdv", report: null, name: "schema validation", condition: null, category: "schema", status: "pass", message: "No anomalies found.", observed: null, threshold: null, columns: [], details: [], values: {}, notApplicable: false, path }];
}
