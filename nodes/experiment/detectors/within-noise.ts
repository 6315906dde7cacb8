import type { Finding } from "../../../domain/result.js";
import { detectorFinding } from "../../findings.js";
import { type ConfigGroup, criticalDifference, describeConfig, describePairNoise, type Experiment, fmt, type PairNoise, pairNoise, worseBy } from "../model.js";

/** Two-sided 95 %: a difference smaller than this is not a result (Bouthillier et al. 2021). */
const LEVEL = 0.975;

/** Scored configurations, best mean first. */
export function rankedGroups(e: Experiment): ConfigGroup[] {
  return e.groups.filter((g) => g.mean !== null).sort((a, b) => worseBy(e.objective, a.mean!, b.mean!) || a.config.localeCompare(b.config));
}

/** The configurations whose mean is within noise of the best one's. */
export function tiedWithBest(e: Experiment): { best: ConfigGroup; tied: Array<{ group: ConfigGroup; diff: number; critical: number; noise: PairNoise }> } | null {
  const [best, ...rest] = rankedGroups(e);
  if (!best || e.noise.sigma === 0) return null;
  const tied = rest
    .map((group) => {
      const noise = pairNoise(group, best);
      return { group, diff: worseBy(e.objective, group.mean!, best.mean!), critical: criticalDifference(noise, LEVEL), noise };
    })
    .filter((t) => t.diff < t.critical);
  return { best, tied };
}

/** The best configuration is not better than others beyond the noise between seeds: its lead is not a result. */
export function detectWithinNoise(e: Experiment): Finding[] {
  const ties = tiedWithBest(e);
  if (!ties || ties.tied.length === 0) return [];
  const { best, tied } = ties;
  const o = e.objective;
  return [
    detectorFinding({
      id: "experiment.within_noise",
      title: `The best configuration's lead is within seed noise`,
      description: `The best configuration by mean ${o.metric} (${describeConfig(best.params)}: ${fmt(best.mean)}) is not distinguishable from ${tied.length} other(s) at the 95 % level (Welch, each pair judged by its own two configurations' noise): ${tied.slice(0, 4).map((t) => `${describeConfig(t.group.params)} (${fmt(t.group.mean)}, Δ ${fmt(t.diff)} < ${fmt(t.critical)}; ${describePairNoise(t.noise)})`).join("; ")}${tied.length > 4 ? "; …" : ""}. Calling one of them better is reading noise.`,
      evidence: tied.slice(0, 10).map((t) => ({
        rule_id: "EX-01",
        artifact: `runs:${o.metric}`,
        text: `${describeConfig(t.group.params)} is ${fmt(t.diff)} worse than ${describeConfig(best.params)} (means over ${t.group.scored.length} and ${best.scored.length} run(s)); a real difference needs more than ${fmt(t.critical)}.`,
        observed: Number(t.diff.toPrecision(6)),
        threshold: Number(t.critical.toPrecision(6)),
        noise_estimate: Number(t.noise.sigma.toPrecision(6)),
        n_points: t.group.scored.length + best.scored.length,
        values: { best_mean: best.mean, other_mean: t.group.mean, noise_source: t.noise.source, df: Number.isFinite(t.noise.df) ? Number(t.noise.df.toPrecision(4)) : null },
      })),
      severity: "medium",
      confidence: tied.every((t) => t.noise.source === "seeds") ? 0.8 : 0.6,
      recommendation: {
        action: `Repeat the ${Math.min(tied.length + 1, 5)} leading configurations with at least 3 seeds each and compare their means; among ties, pick the cheaper or simpler one`,
        rationale: "Seed-to-seed variation (initialization, data order) moves results as much as these differences; only a difference larger than it is evidence.",
        category: "training",
        effort: "medium",
      },
    }),
  ];
}
