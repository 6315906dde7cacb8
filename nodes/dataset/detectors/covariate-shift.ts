import { type Severity, severityRank } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import type { DatasetDetector } from "../detector.js";
import type { ChannelStats } from "../model.js";

/** Standardized mean difference (Cohen's d) bands: 0.2 small, 0.5 medium (Cohen 1988). */
const D_LOW = 0.1;
const D_MEDIUM = 0.3;
const D_HIGH = 0.5;
/** Std ratios beyond these say the contrast/spread of the images changed. */
const RATIO_LOW = 1.1;
const RATIO_MEDIUM = 1.25;
const RATIO_HIGH = 1.5;

export interface ChannelShift {
  from: string;
  to: string;
  /** Largest |Δmean| / pooled std over channels. */
  d: number;
  /** Largest std ratio over channels, ≥ 1 whichever way it goes. */
  stdRatio: number;
  meanDiff: number[];
}

/** Effect sizes between two splits' per-channel statistics. */
export function channelShift(from: string, a: ChannelStats, to: string, b: ChannelStats): ChannelShift | null {
  const n = Math.min(a.mean.length, b.mean.length, a.std.length, b.std.length);
  if (n === 0) return null;
  let d = 0;
  let stdRatio = 1;
  const meanDiff: number[] = [];
  for (let i = 0; i < n; i++) {
    const [ma, mb, sa, sb] = [a.mean[i]!, b.mean[i]!, a.std[i]!, b.std[i]!];
    const pooled = Math.sqrt((sa * sa + sb * sb) / 2);
    meanDiff.push(mb - ma);
    if (pooled > 0) d = Math.max(d, Math.abs(mb - ma) / pooled);
    if (sa > 0 && sb > 0) stdRatio = Math.max(stdRatio, sb / sa, sa / sb);
  }
  if (![d, stdRatio].every(Number.isFinite)) return null;
  return { from, to, d, stdRatio, meanDiff };
}

function severityOf(s: ChannelShift): Severity | null {
  if (s.d >= D_HIGH || s.stdRatio >= RATIO_HIGH) return "high";
  if (s.d >= D_MEDIUM || s.stdRatio >= RATIO_MEDIUM) return "medium";
  if (s.d >= D_LOW || s.stdRatio >= RATIO_LOW) return "low";
  return null;
}

/**
 * Covariate shift between splits from per-channel image statistics (the legacy client's train/test means and
 * stds): Cohen's d of a channel mean ≥ 0.1 low, ≥ 0.3 medium, ≥ 0.5 high; std ratio ≥ 1.1 / 1.25 / 1.5 likewise.
 */
export const covariateShift: DatasetDetector = {
  info: {
    id: "dataset.covariate_shift",
    rule: "CR-03",
    title: "Input distribution differs between splits",
    threshold: "per-channel Cohen's d ≥ 0.1 low, ≥ 0.3 medium, ≥ 0.5 high; std ratio ≥ 1.1 / 1.25 / 1.5",
    severities: ["low", "medium", "high"],
    basis: "Effect-size conventions (Cohen 1988); Rabanser et al. 2019 on univariate shift tests [K23]",
  },
  detect(stats) {
    const train = stats.channels.train;
    if (!train) return [];
    const shifts = (["val", "test"] as const).flatMap((s) => {
      const other = stats.channels[s];
      const shift = other ? channelShift("train", train, s, other) : null;
      const severity = shift ? severityOf(shift) : null;
      return shift && severity ? [{ shift, severity, path: other!.path }] : [];
    });
    if (!shifts.length) return [];
    shifts.sort((a, b) => severityRank(a.severity) - severityRank(b.severity) || b.shift.d - a.shift.d);
    const worst = shifts[0]!;
    const s = worst.shift;
    const direction = s.meanDiff.every((x) => x > 0) ? "brighter" : s.meanDiff.every((x) => x < 0) ? "darker" : "different in colour";
    return [
      detectorFinding({
        id: this.info.id,
        title: "Image statistics differ between train and evaluation",
        description: `${s.to} images are ${direction} than train (channel means differ by up to ${Math.max(...s.meanDiff.map(Math.abs)).toFixed(3)}, effect size d = ${s.d.toFixed(2)}) and their spread differs up to ${s.stdRatio.toFixed(2)}×. The evaluation data was likely captured under other conditions, so scores on it may not match training-time expectations.`,
        evidence: shifts.map(({ shift, path }) => ({
          rule_id: this.info.rule,
          artifact: path,
          text: `train vs ${shift.to}: mean difference per channel [${shift.meanDiff.map((x) => x.toFixed(3)).join(", ")}], max Cohen's d ${shift.d.toFixed(3)} (low ≥ ${D_LOW}, medium ≥ ${D_MEDIUM}, high ≥ ${D_HIGH}), max std ratio ${shift.stdRatio.toFixed(3)}.`,
          observed: Number(shift.d.toFixed(4)),
          threshold: D_MEDIUM,
          values: { split: shift.to, std_ratio: Number(shift.stdRatio.toFixed(4)) },
        })),
        severity: worst.severity,
        confidence: scoreConfidence({ strength: Math.max(s.d / D_MEDIUM, (s.stdRatio - 1) / (RATIO_MEDIUM - 1)), threshold: 1 }),
        recommendation: {
          action: "Add training data from the evaluation conditions (capture device, lighting, site), augment brightness, contrast and colour, and evaluate on data that matches deployment.",
          rationale: "A model trained under one capture condition degrades under another; univariate statistics already show the shift (Rabanser et al. 2019).",
          category: "data",
          effort: "medium",
        },
      }),
    ];
  },
};
