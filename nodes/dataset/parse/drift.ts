import type { FeatureDrift } from "../model.js";
import { isRecord, toFinite, toText } from "../../../artifacts/json-values.js";

/**
 * `drift: {column: {kind?, psi, ks?, total_variation?}}` as the ml-diagnose client writes it (PSI over train
 * deciles or categories, KS statistic, total variation distance); columns without a finite PSI are skipped.
 */
export function readDrift(value: unknown, path: string): FeatureDrift[] {
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([column, d]) => {
    if (!isRecord(d)) return [];
    const psi = toFinite(d.psi);
    if (psi === null || psi < 0) return [];
    const kind = toText(d.kind);
    return [
      {
        column,
        kind: kind === "numeric" || kind === "categorical" ? kind : null,
        psi,
        ks: toFinite(d.ks ?? d.ks_statistic),
        totalVariation: toFinite(d.total_variation ?? d.tv),
        path: `${path}.${column}`,
      },
    ];
  });
}
