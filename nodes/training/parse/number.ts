const NON_FINITE: Record<string, number> = {
  nan: Number.NaN,
  "+nan": Number.NaN,
  "-nan": Number.NaN,
  inf: Number.POSITIVE_INFINITY,
  "+inf": Number.POSITIVE_INFINITY,
  infinity: Number.POSITIVE_INFINITY,
  "+infinity": Number.POSITIVE_INFINITY,
  "-inf": Number.NEGATIVE_INFINITY,
  "-infinity": Number.NEGATIVE_INFINITY,
};

/** Cells tools write for "no value": Keras CSVLogger's NA, pandas' empty cell, None. */
const MISSING = new Set(["", "na", "n/a", "none", "null"]);

/**
 * A metric value as tools write it, or null when the cell is empty: numbers (NaN/±Infinity included), MLflow's
 * "NaN"/"Infinity" strings, CSV text such as "0.25", "nan", "inf", "NA". Anything else is not a metric value
 * (undefined), which callers report or skip.
 */
export function readMetricValue(v: unknown): number | null | undefined {
  if (typeof v === "number") return v;
  if (v === null || v === undefined) return null;
  if (typeof v !== "string") return undefined;
  // Empty cells are most cells of a sparse CSV (Lightning logs each metric on its own row).
  if (v === "") return null;
  // Fast path for ordinary numeric text ("0.25", "1e-05"); Number("") and Number(" ") are 0, hence the check.
  const fast = Number(v);
  if (!Number.isNaN(fast) && (fast !== 0 || /\d/.test(v))) return fast;
  const t = v.trim();
  const lower = t.toLowerCase();
  if (MISSING.has(lower)) return null;
  if (lower in NON_FINITE) return NON_FINITE[lower];
  const n = Number(t);
  return Number.isNaN(n) ? undefined : n;
}
