import { canonicalSplit } from "../splits.js";
import { isRecord, type JsonRecord, toFinite } from "../../../artifacts/json-values.js";

/** Split name used for a class distribution that is not broken down by split. */
export const ALL_SPLITS = "all";

function counts(rec: JsonRecord): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [label, n] of Object.entries(rec)) {
    const v = toFinite(n);
    if (v !== null && v >= 0) out[label] = v;
  }
  return out;
}

/**
 * `class_distribution` as `{label: count}` (stored under "all") or `{split: {label: count}}` with split names
 * canonicalized (training → train, validation → val, holdout → test).
 */
export function readClassDistribution(value: unknown): Record<string, Record<string, number>> {
  if (!isRecord(value)) return {};
  const entries = Object.entries(value);
  if (entries.length > 0 && entries.every(([, v]) => isRecord(v))) {
    const out: Record<string, Record<string, number>> = {};
    for (const [split, v] of entries) {
      const c = counts(v as JsonRecord);
      if (Object.keys(c).length) out[canonicalSplit(split)] = c;
    }
    return out;
  }
  const flat = counts(value);
  return Object.keys(flat).length ? { [ALL_SPLITS]: flat } : {};
}
