import type { ColumnKind, ColumnStats } from "../model.js";
import { isRecord, type JsonRecord, toNumber, toText } from "../../../artifacts/json-values.js";

const NUMERIC_DTYPE = /^(u?int|float|double|long|integer|number|numeric|decimal|short|byte)/i;
const BOOLEAN_DTYPE = /^bool/i;
const DATETIME_DTYPE = /^(datetime|date|timestamp|time)/i;
const CATEGORICAL_DTYPE = /^(object|string|str|category|categorical|binary|text)/i;

/** The kind of a column from its dtype, or from which statistics it has when the dtype is unknown. */
export function columnKind(dtype: string | null, stats: { mean: number | null; top: string | null }): ColumnKind {
  if (dtype) {
    if (BOOLEAN_DTYPE.test(dtype)) return "boolean";
    if (DATETIME_DTYPE.test(dtype)) return "datetime";
    if (NUMERIC_DTYPE.test(dtype)) return "numeric";
    if (CATEGORICAL_DTYPE.test(dtype)) return "categorical";
  }
  if (stats.mean !== null && !Number.isNaN(stats.mean)) return "numeric";
  if (stats.top !== null) return "categorical";
  return "unknown";
}

/** The first of several keys that holds a number (NaN/Infinity kept: they are what detectors look for). */
function numberAt(rec: JsonRecord, ...keys: string[]): number | null {
  for (const k of keys) {
    const n = toNumber(rec[k]);
    if (n !== null) return n;
  }
  return null;
}

/** Like numberAt for counts, where describe(include="all") writes NaN for "does not apply". */
function countAt(rec: JsonRecord, ...keys: string[]): number | null {
  const n = numberAt(rec, ...keys);
  return n !== null && Number.isFinite(n) ? n : null;
}

/** `top` may be any JSON scalar (pandas writes the most frequent value as is). */
function topValue(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "number" && Number.isNaN(v)) return null;
  return typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : null;
}

/**
 * One column from `{dtype, count, missing | missing_fraction, unique, mean, std, min, max, p25, p50, p75, top,
 * top_frequency}`, also accepting pandas describe() keys ("25%", "freq") and the row count to derive missing
 * values when only `count` is given.
 */
export function readColumn(name: string, rec: JsonRecord, path: string, rows: number | null): ColumnStats {
  const dtype = toText(rec.dtype) ?? toText(rec.type);
  const count = countAt(rec, "count", "non_null", "n");
  let missing = countAt(rec, "missing", "missing_count", "null_count", "n_missing", "nulls");
  let missingFraction = numberAt(rec, "missing_fraction", "missing_ratio", "null_fraction", "p_missing");
  const missingPercent = numberAt(rec, "missing_percent", "missing_pct", "null_percent");
  if (missingFraction === null && missingPercent !== null) missingFraction = missingPercent / 100;
  if (missingFraction === null && missing !== null) {
    const total = count !== null ? count + missing : rows;
    missingFraction = total ? missing / total : null;
  }
  // pandas describe() gives only the non-null count: the rest of the rows are missing.
  if (missing === null && missingFraction === null && count !== null && rows !== null && rows > 0 && count <= rows) {
    missing = rows - count;
    missingFraction = missing / rows;
  }
  if (missing === null && missingFraction !== null && count !== null && missingFraction < 1) {
    missing = Math.round((count * missingFraction) / (1 - missingFraction));
  }
  const mean = numberAt(rec, "mean");
  const top = topValue(rec.top ?? rec.mode);
  const required = typeof rec.required === "boolean" ? rec.required : null;
  return {
    name,
    dtype,
    kind: columnKind(dtype, { mean, top }),
    count,
    missing,
    missingFraction,
    unique: countAt(rec, "unique", "n_unique", "nunique", "distinct", "n_distinct"),
    mean,
    std: numberAt(rec, "std", "stddev"),
    min: numberAt(rec, "min"),
    max: numberAt(rec, "max"),
    p25: numberAt(rec, "p25", "25%", "q1"),
    p50: numberAt(rec, "p50", "50%", "median"),
    p75: numberAt(rec, "p75", "75%", "q3"),
    top,
    topFrequency: countAt(rec, "top_frequency", "freq", "top_freq", "top_count"),
    nanCount: countAt(rec, "nan_count", "n_nan"),
    infCount: countAt(rec, "inf_count", "n_inf", "infinite_count"),
    labelPredictiveness: numberAt(rec, "pps", "label_pps", "target_pps", "mutual_information", "label_correlation", "target_correlation"),
    required,
    path,
  };
}

/**
 * Reads a `columns` map `{name: {...}}` or a list `[{name, ...}]`. `rowCandidates` are row counts the artifact
 * states (train rows, total rows): the one the column counts were taken over is used to derive missing values.
 */
export function readColumnMap(value: unknown, path: string, rowCandidates: readonly number[]): ColumnStats[] {
  const entries: Array<[string, JsonRecord, string]> = Array.isArray(value)
    ? value.flatMap((c, i) => {
        const name = isRecord(c) ? toText(c.name) ?? toText(c.column) : null;
        return isRecord(c) && name ? [[name, c, `${path}[${i}]`] as [string, JsonRecord, string]] : [];
      })
    : isRecord(value)
      ? Object.entries(value).flatMap(([name, c]) => (isRecord(c) ? [[name, c, `${path}.${name}`] as [string, JsonRecord, string]] : []))
      : [];
  const rows = rowBasis(entries.map(([, c]) => c), rowCandidates);
  return entries.map(([name, c, p]) => readColumn(name, c, p, rows));
}

/**
 * The number of rows the column statistics were computed over: the smallest stated row count that is at least
 * the largest column total (so train-only statistics are not read against the whole dataset), else that total.
 */
function rowBasis(columns: readonly JsonRecord[], candidates: readonly number[]): number | null {
  const totals = columns.flatMap((c) => {
    const n = toNumber(c.count);
    const m = toNumber(c.missing) ?? 0;
    return n !== null && Number.isFinite(n) && Number.isFinite(m) ? [n + m] : [];
  });
  if (totals.length === 0) return null;
  const largest = Math.max(...totals);
  const fitting = candidates.filter((r) => r >= largest).sort((a, b) => a - b);
  return fitting[0] ?? largest;
}

const DESCRIBE_STATS = new Set(["count", "mean", "std", "min", "25%", "50%", "75%", "max", "unique", "top", "freq"]);

/**
 * pandas `describe()` output as `{column: {count, mean, …}}` (DataFrame.to_dict()), or transposed
 * `{count: {column: …}, …}` as `describe().T` gives it; `include="all"` leaves nulls where a statistic does
 * not apply to a column.
 */
export function readDescribe(value: unknown, path: string, rowCandidates: readonly number[]): ColumnStats[] {
  if (!isRecord(value)) return [];
  const keys = Object.keys(value);
  const transposed = keys.length > 0 && keys.filter((k) => DESCRIBE_STATS.has(k)).length >= Math.ceil(keys.length / 2);
  if (!transposed) return readColumnMap(value, path, rowCandidates);
  const byColumn: Record<string, JsonRecord> = {};
  for (const [stat, perColumn] of Object.entries(value)) {
    if (!isRecord(perColumn)) continue;
    for (const [col, v] of Object.entries(perColumn)) (byColumn[col] ??= {})[stat] = v;
  }
  return readColumnMap(byColumn, path, rowCandidates);
}
