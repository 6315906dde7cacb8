import { clip, isRecord, type JsonRecord, toFinite, toText } from "../../../artifacts/json-values.js";
import type { CheckCategory, CheckOutcome, CheckStatus } from "../model.js";

const STATUS: Record<string, CheckStatus> = {
  pass: "pass", passed: "pass", success: "pass", ok: "pass",
  warn: "warn", warning: "warn",
  fail: "fail", failed: "fail", failure: "fail",
  error: "error", errored: "error", exception: "error",
  skip: "skipped", skipped: "skipped",
};

/** Whether a record is a generic check `{name, status, …}`. */
export function isGenericCheck(v: unknown): v is JsonRecord {
  return isRecord(v) && typeof v.name === "string" && typeof v.status === "string";
}

const LABEL_WORDS = /target|label|class_share|churn_rate|positive_rate|prior/;

/** The category from `category` when given, else from the check's name and columns. */
function genericCategory(rec: JsonRecord, name: string): CheckCategory {
  const declared = (toText(rec.category) ?? "").toLowerCase();
  const text = `${declared} ${name}`.toLowerCase();
  if (/leak|overlap|samples_mix|contamination/.test(text)) return "leakage";
  if (/drift|shift/.test(text)) {
    if (/dataset|share_of_drifted|multivariate/.test(text)) return "dataset_drift";
    if (/prediction/.test(text)) return "prediction_drift";
    return LABEL_WORDS.test(text) ? "label_drift" : "feature_drift";
  }
  if (/schema|column_set|dtype|type_mismatch/.test(text)) return "schema";
  if (/new_label|unseen_label/.test(text)) return "new_labels";
  if (/model|performance|evaluation|accuracy|auc|f1/.test(text)) return "model_eval";
  if (/integrity|quality|missing|null|duplicate|constant|single_value|range|outlier|unique/.test(text)) return "integrity";
  return "other";
}

/**
 * A generic check record `{name, status: pass|warn|fail|error, category?, value?, threshold?, message?, columns?}`.
 * Returns null (with the reason) for a status that is none of those.
 */
export function readGenericCheck(rec: JsonRecord, path: string): CheckOutcome | { unreadable: string } {
  const name = toText(rec.name) ?? "unnamed check";
  const status = STATUS[String(rec.status).trim().toLowerCase()];
  if (!status) return { unreadable: `status ${JSON.stringify(rec.status)} is not pass, warn, fail or error` };
  const columns = Array.isArray(rec.columns) ? rec.columns.map(String) : toText(rec.column) ? [toText(rec.column)!] : [];
  return {
    tool: "generic", report: toText(rec.source) ?? toText(rec.tool), name, condition: null, category: genericCategory(rec, name), status,
    message: clip(toText(rec.message) ?? "", 400), observed: toFinite(rec.value), threshold: toFinite(rec.threshold),
    columns, details: [], values: {}, notApplicable: false, path,
  };
}
