import type { Evidence, Severity } from "../../graph/result.js";
import type { CountShare } from "./model.js";
import { fmt, pct } from "./values.js";

/** A two-band rule on a share: above `high` is the upper severity, above `low` the lower one. */
export interface ShareBands {
  low: number;
  high: number;
  lowSeverity: Severity;
  highSeverity: Severity;
}

/** The band a share falls in, or null when it is at or below the lower threshold. */
export function shareBand(fraction: number, bands: ShareBands): { severity: Severity; threshold: number } | null {
  if (fraction > bands.high) return { severity: bands.highSeverity, threshold: bands.high };
  if (fraction > bands.low) return { severity: bands.lowSeverity, threshold: bands.low };
  return null;
}

/** Evidence for a count/share statistic: "<what>: 37 rows (0.30 %)". */
export function shareEvidence(rule: string, cs: CountShare, what: string, threshold: number): Evidence {
  const parts = [cs.count !== null ? `${fmt(cs.count)} rows` : null, cs.fraction !== null ? pct(cs.fraction, 2) : null].filter(Boolean);
  return {
    rule_id: rule,
    artifact: cs.path,
    text: `${what}: ${parts.join(", ")} (threshold ${pct(threshold, 1)}).`,
    observed: cs.fraction !== null ? Number(cs.fraction.toFixed(5)) : cs.count,
    threshold,
    values: { count: cs.count, fraction: cs.fraction },
  };
}
