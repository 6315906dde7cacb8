import { decodeJsonString, isRecord, type JsonRecord, toFinite } from "../../../artifacts/json-values.js";
import type { CheckCategory, CheckDetail } from "../model.js";
import { driftThresholds, isCategoricalMethod, moreInfoDict, moreInfoScores } from "./conditions.js";

/** What a check's `value` says: the main number, per-column details, and any row counts it states. */
export interface ValueReading {
  observed: number | null;
  details: CheckDetail[];
  values?: Record<string, number>;
  rowCounts?: { train?: number; test?: number };
}

const EMPTY: ValueReading = { observed: null, details: [] };

function maxScore(details: CheckDetail[]): number | null {
  const scores = details.flatMap((d) => (d.score !== null ? [d.score] : []));
  return scores.length ? Math.max(...scores) : null;
}

/** `{name: {"Drift score", "Method", "Importance"?}}`, or a single `{"Drift score", "Method"}` (tabular label drift). */
function readDrift(value: JsonRecord, condition: string | null, moreInfo: string | null): ValueReading {
  const entries: Array<[string, JsonRecord]> = "Drift score" in value ? [["label", value]] : Object.entries(value).flatMap(([k, v]) => (isRecord(v) && "Drift score" in v ? [[k, v] as [string, JsonRecord]] : []));
  const limits = driftThresholds(condition);
  const listed = new Set(moreInfoScores(moreInfoDict(moreInfo)).map((s) => s.name));
  const details = entries.map(([name, v]): CheckDetail => {
    const method = typeof v.Method === "string" ? v.Method : undefined;
    const threshold = isCategoricalMethod(method) ? limits.categorical : limits.numerical;
    const score = toFinite(v["Drift score"]);
    const importance = toFinite(v.Importance);
    return { name, score, threshold, flagged: listed.has(name) || (score !== null && threshold !== null && score >= threshold), method, ...(importance !== null ? { importance } : {}) };
  });
  return { observed: maxScore(details), details };
}

/** Domain-classifier drift: `{domain_classifier_auc, domain_classifier_drift_score, domain_classifier_feature_importance}`. */
function readDomainClassifier(value: JsonRecord): ValueReading {
  const importance = isRecord(value.domain_classifier_feature_importance) ? value.domain_classifier_feature_importance : {};
  const details = Object.entries(importance).flatMap(([name, v]) => {
    const imp = toFinite(v);
    return imp !== null ? [{ name, score: null, threshold: null, flagged: false, importance: imp }] : [];
  });
  details.sort((a, b) => b.importance - a.importance);
  const auc = toFinite(value.domain_classifier_auc);
  return { observed: toFinite(value.domain_classifier_drift_score), details, ...(auc !== null ? { values: { domain_classifier_auc: auc } } : {}) };
}

/**
 * Predictive-power changes: tabular `{train: {f: pps}, test: {…}, "train-test difference": {…}}` or vision
 * `{property: {train: {class: pps}, test, "train-test difference"}}`; one detail per feature (largest |difference|).
 */
function readPpsChange(value: JsonRecord, threshold: number | null, moreInfo: string | null): ValueReading {
  const listed = new Set(moreInfoScores(moreInfoDict(moreInfo)).map((s) => s.name));
  const perFeature: Array<[string, JsonRecord, JsonRecord]> = isRecord(value["train-test difference"])
    ? Object.keys(value["train-test difference"]).map((f) => [f, { "": (value["train-test difference"] as JsonRecord)[f] }, { "": isRecord(value.train) ? value.train[f] : null }])
    : Object.entries(value).flatMap(([f, v]) => (isRecord(v) && isRecord(v["train-test difference"]) ? [[f, v["train-test difference"], isRecord(v.train) ? v.train : {}] as [string, JsonRecord, JsonRecord]] : []));
  const details = perFeature.map(([name, diffs, train]): CheckDetail => {
    let best: { subject: string; diff: number } = { subject: "", diff: 0 };
    for (const [subject, d] of Object.entries(diffs)) {
      const n = toFinite(d);
      if (n !== null && Math.abs(n) > Math.abs(best.diff)) best = { subject, diff: n };
    }
    const trainPps = toFinite(train[best.subject]);
    return {
      name,
      score: best.diff,
      threshold,
      flagged: listed.has(name) || (threshold !== null && best.diff >= threshold),
      ...(best.subject ? { subject: best.subject } : {}),
      ...(trainPps !== null ? { importance: trainPps } : {}),
    };
  });
  return { observed: maxScore(details), details };
}

/** `{column: score}` maps (PPS per feature, unique counts…). */
function readScoreMap(value: JsonRecord, threshold: number | null): ValueReading {
  const details = Object.entries(value).flatMap(([name, v]) => {
    const score = toFinite(v);
    return score !== null ? [{ name, score, threshold, flagged: threshold !== null && score >= threshold }] : [];
  });
  return { observed: maxScore(details), details };
}

/** New labels: tabular `{n_samples, n_new_labels_samples, new_labels: []}` or vision `{new_labels: {label: n}, all_labels_count}`. */
function readNewLabels(value: JsonRecord): ValueReading {
  const labels = Array.isArray(value.new_labels) ? value.new_labels.map(String) : isRecord(value.new_labels) ? Object.keys(value.new_labels) : [];
  const newRows = toFinite(value.n_new_labels_samples) ?? (isRecord(value.new_labels) ? Object.values(value.new_labels).reduce<number>((s, n) => s + (toFinite(n) ?? 0), 0) : null);
  const total = toFinite(value.n_samples ?? value.all_labels_count);
  return { observed: newRows !== null && total ? newRows / total : null, details: labels.map((name) => ({ name, score: null, threshold: null, flagged: true })) };
}

/** The first number in a value that is a number, or `{ratio | percent | …}`. */
function readRatio(value: unknown): number | null {
  const n = toFinite(value);
  if (n !== null) return n;
  if (!isRecord(value)) return null;
  for (const key of ["ratio", "percent", "percent_of_conflicting_samples", "percentage", "value", "score"]) {
    const v = toFinite(value[key]);
    if (v !== null) return v;
  }
  return null;
}

/**
 * Reads a Deepchecks CheckResult `value` by what the check is about. DataFrame values arrive as JSON strings
 * and are decoded first.
 */
export function readDeepchecksValue(checkKey: string, category: CheckCategory, raw: unknown, condition: string | null, threshold: number | null, moreInfo: string | null): ValueReading {
  const value = decodeJsonString(raw);
  if (checkKey === "datasets size comparison" && isRecord(value)) {
    const train = toFinite(value.Train ?? value.train);
    const test = toFinite(value.Test ?? value.test);
    return { observed: train && test !== null ? test / train : null, details: [], rowCounts: { ...(train !== null ? { train } : {}), ...(test !== null ? { test } : {}) } };
  }
  if (!isRecord(value)) return { observed: readRatio(value), details: [] };
  if (checkKey === "is single value") {
    // `{column: number of unique values}`: a column with one value is the finding.
    const details = Object.entries(value).flatMap(([name, v]) => {
      const n = toFinite(v);
      return n !== null ? [{ name, score: n, threshold: 1, flagged: n <= 1 }] : [];
    });
    return { observed: details.filter((d) => d.flagged).length, details };
  }
  switch (category) {
    case "feature_drift":
    case "label_drift":
    case "prediction_drift":
      return readDrift(value, condition, moreInfo);
    case "dataset_drift":
      return readDomainClassifier(value);
    case "shortcut":
      return readPpsChange(value, threshold, moreInfo);
    case "new_labels":
      return readNewLabels(value);
    case "leakage":
      if ("ratio" in value) return { observed: readRatio(value), details: [] };
      return readScoreMap(isRecord(value.train) ? value.train : value, threshold);
    default:
      return readRatio(value) !== null ? { observed: readRatio(value), details: [] } : EMPTY;
  }
}
