import type { FeaturePair } from "../model.js";
import { isRecord, toFinite, toText } from "../../../artifacts/json-values.js";

/**
 * Feature–feature correlations as a matrix `{a: {b: r}}` (pandas `df.corr().to_dict()`) or a list of pairs
 * `[{a, b, r}]` / `[{feature_1, feature_2, correlation}]`; each unordered pair once, the diagonal dropped.
 */
export function readCorrelations(value: unknown, path: string): FeaturePair[] {
  const pairs: FeaturePair[] = [];
  const seen = new Set<string>();
  const add = (a: string, b: string, r: number | null, at: string) => {
    const key = [a, b].sort().join("\u0000");
    if (a === b || r === null || seen.has(key)) return;
    seen.add(key);
    pairs.push({ a, b, r, path: at });
  };
  if (Array.isArray(value)) {
    value.forEach((p, i) => {
      if (!isRecord(p)) return;
      const a = toText(p.a ?? p.feature_1 ?? p.x);
      const b = toText(p.b ?? p.feature_2 ?? p.y);
      if (a && b) add(a, b, toFinite(p.r ?? p.correlation ?? p.value), `${path}[${i}]`);
    });
  } else if (isRecord(value)) {
    for (const [a, row] of Object.entries(value)) {
      if (!isRecord(row)) continue;
      for (const [b, r] of Object.entries(row)) add(a, b, toFinite(r), `${path}.${a}.${b}`);
    }
  }
  return pairs;
}
