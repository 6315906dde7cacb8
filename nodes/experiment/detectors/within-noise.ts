import type { Finding } from "../../../domain/result.js";
import { detectorFinding } from "../../findings.js";
import { type ConfigGroup, criticalDifference, describeConfig, type Experiment, fmt, worseBy } from "../model.js";
import { tQuantile } from "../stats.js";

/** Two-sided 95 %: a difference smaller than this is not a result (Bouthillier et al. 2021). */
const LEVEL = 0.975;

/** Scored configurations, best mean first. */
export function rankedGroups(e: Experiment): ConfigGroup[] {
  return e.groups.filter((g) => g.mean !== null).sort((a, b) => worseBy(e.objective, a.mean!, b.mean!) || a.config.localeCompare(b.config));
}

/** The configurations whose mean is within noise of the best one's. */
export function tiedWithBest(e: Experiment): { best: ConfigGroup; tied: Array<{ group: ConfigGroup; diff: number; critical: number }> } | null {
  const [best, ...rest] = rankedGroups(e);
  if (!best || e.noise.sigma === 0) return null;
  const q = tQuantile(LEVEL, e.noise.df);
  const tied = rest
    .map((group) => ({ group, diff: worseBy(e.objective, group.mean!, best.mean!), critical: criticalDifference(e.noise, group.scored.length, best.scored.length, q) }))
    .filter((t) => t.diff < t.critical);
  return { best, tied };
}

/** The best configuration is not better than others beyond the noise between seeds: its lead is not a result. */
export function detectWithinNoise(e: Experiment): Finding[] {
  const ties = tiedWithBest(e);
  if (!ties || ties.tied.length === 0) return [];
  const { best, tied } = ties;
  const o = e.objective;
  const noiseFrom = e.noise.source === "seeds" ? `the spread between seeds (σ = ${fmt(e.noise.sigma)}, ${e.noise.df} degrees of freedom from ${e.noise.replicatedConfigs} repeated configurations)` : `the runs' own evaluation noise (σ = ${fmt(e.noise.sigma)}; no configuration was repeated with another seed)`;
  return [
    detectorFinding({
      id: "experiment.within_noise",
      title: `The best configuration's lead is within seed noise`,
      description: `The best configuration by mean ${o.metric} (${describeConfig(best.params)}: ${fmt(best.mean)}) is not distinguishable from ${tied.length} other(s) at the 95 % level given ${noiseFrom}: ${tied.slice(0, 4).map((t) => `${describeConfig(t.group.params)} (${fmt(t.group.mean)}, Δ ${fmt(t.diff)} < ${fmt(t.critical)})`).join("; ")}${tied.length > 4 ? "; …" : ""}. Calling one of them better is reading noise.`,
      evidence: tied.slice(0, 10).map((t) => ({
        rule_id: "EX-01",
        artifact: `runs:${o.metric}`,
        text: `${describeConfig(t.group.params)} is ${fmt(t.diff)} worse than ${describeConfig(best.params)} (means over ${t.group.scored.length} and ${best.scored.length} run(s)); a real difference needs more than ${fmt(t.critical)}.`,
        observed: Number(t.diff.toPrecision(6)),
        threshold: Number(t.critical.toPrecision(6)),
        noise_estimate: Number(e.noise.sigma.toPrecision(6)),
        n_points: t.group.scored.length + best.scored.length,
        values: { best_mean: best.mean, other_mean: t.group.mean, noise_source: e.noise.source },
      })),
      severity: "medium",
      confidence: e.noise.source === "seeds" ? 0.8 : 0.6,
      recommendation: {
        action: `Repeat the ${Math.min(tied.length + 1, 5)} leading configurations with at least 3 seeds each and compare their means; among ties, pick the cheaper or simpler one`,
        rationale: "Seed-to-seed variation (initialization, data order) moves results as much as these differences; only a difference larger than it is evidence.",
        category: "training",
        effort: "medium",
      },
    }),
  ];
}
