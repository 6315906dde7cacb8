import type { Evidence, FindingRecommendation, Severity } from "../../domain/result.js";
import type { DetectorInfo } from "../catalog.js";
import { detectorFinding, scoreConfidence } from "../findings.js";
import type { DatasetDetector } from "./detector.js";
import type { CountShare, DatasetStats } from "./model.js";
import { fmt, pct } from "../../artifacts/json-values.js";

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

/** Evidence for a count/share statistic: "<what>: 37 rows, 0.30 % (threshold 1.0 %)". */
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

/** What a share detector needs besides its bands: where the statistic is and how to say what it means. */
export interface ShareDetectorSpec {
  info: DetectorInfo;
  bands: ShareBands;
  pick(stats: DatasetStats): CountShare | null;
  /** Names the rows, for evidence ("duplicate rows"). */
  what: string;
  title: string;
  /** The description, given the share ("6.0 %") or, when only a count is known, the count ("12"), to read "… of the rows". */
  describe(amount: string): string;
  recommendation: FindingRecommendation;
  /** A benign cause is plausible (lowers confidence). */
  benignPossible?: boolean;
}

/**
 * A detector for a count-or-share statistic with two severity bands (duplicates, overlap, conflicting labels,
 * label issues). A count without a share (rows unknown) falls in the lower band when the lower threshold is 0.
 */
export function shareDetector(spec: ShareDetectorSpec): DatasetDetector {
  return {
    info: spec.info,
    detect(stats) {
      const cs = spec.pick(stats);
      if (!cs) return [];
      const fraction = cs.fraction ?? (spec.bands.low === 0 && (cs.count ?? 0) > 0 ? Number.MIN_VALUE : null);
      const band = fraction === null ? null : shareBand(fraction, spec.bands);
      if (!band) return [];
      const amount = cs.fraction !== null ? pct(cs.fraction, cs.fraction < 0.1 ? 2 : 1) : fmt(cs.count ?? 0);
      return [
        detectorFinding({
          id: spec.info.id,
          title: spec.title,
          description: spec.describe(amount),
          evidence: [shareEvidence(spec.info.rule, cs, spec.what, band.threshold)],
          severity: band.severity,
          confidence: cs.fraction !== null ? scoreConfidence({ strength: cs.fraction, threshold: band.threshold || spec.bands.high, benignPossible: spec.benignPossible }) : 0.6,
          recommendation: spec.recommendation,
        }),
      ];
    },
  };
}
