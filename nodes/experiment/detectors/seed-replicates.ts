import type { Finding } from "../../../domain/result.js";
import { detectorFinding } from "../../findings.js";
import { describeConfig, type Experiment, fmt } from "../model.js";

/** No configuration was run with two seeds: the noise between runs had to be estimated from their curves. */
export function detectNoSeedReplicates(e: Experiment): Finding[] {
  const scored = e.runs.filter((r) => r.score !== null).length;
  if (e.noise.replicatedConfigs > 0 || e.noise.deterministicConfigs > 0 || scored < 2) return [];
  return [
    detectorFinding({
      id: "experiment.no_seed_replicates",
      title: "No configuration was repeated with another seed",
      description: `None of the ${e.runs.length} runs shares its configuration with another (seed parameters: ${e.seedParams.join(", ") || "none logged"}), so the noise between runs is taken from each run's own evaluation-to-evaluation spread (σ = ${fmt(e.noise.sigma)}). Seed-to-seed differences are often larger; every "within noise" and "regression" judgement here rests on that stand-in.`,
      evidence: [
        {
          rule_id: "EX-08",
          artifact: "runs:params",
          text: `${e.groups.length} configurations for ${e.runs.length} runs; noise from curves σ = ${fmt(e.noise.sigma)}.`,
          observed: 0,
          noise_estimate: Number(e.noise.sigma.toPrecision(6)),
          values: { configs: e.groups.length, runs: e.runs.length },
        },
      ],
      severity: "info",
      confidence: 0.9,
      recommendation: {
        action: "Run the leading configuration (and the baseline) with at least 3 seeds, logging the seed as a parameter",
        rationale: "Repeats with different seeds measure the variance a comparison must beat; without them any small difference may be chance.",
        category: "training",
        effort: "medium",
      },
    }),
  ];
}

/**
 * Configurations repeated with several seeds gave the same score to float rounding: training is deterministic
 * (no subsampling, no dropout, a fixed data order), so the seeds measure no noise and the curves stand in.
 */
export function detectDeterministicSeeds(e: Experiment): Finding[] {
  const same = e.groups.filter((g) => g.deterministic);
  if (same.length === 0) return [];
  const varying = e.noise.replicatedConfigs;
  return [
    detectorFinding({
      id: "experiment.deterministic_seeds",
      title: "Seed replicates are identical: training is deterministic",
      description: `${same.length} configuration(s) run with several seeds (${same
        .slice(0, 4)
        .map((g) => `${describeConfig(g.params)}: ${g.scored.length} runs at ${fmt(g.mean)}`)
        .join("; ")}${same.length > 4 ? "; …" : ""}) gave the same ${e.objective.metric} to float rounding (spread ≤ ${fmt(same.reduce((m, g) => Math.max(m, g.spread ?? 0), 0))}). The seed parameter (${e.seedParams.join(", ") || "none logged"}) changes nothing in these runs, so their spread is not seed noise: ${varying ? `those configurations are judged by the runs' own evaluation noise, the others by their seeds` : `the noise between runs is taken from each run's own evaluation-to-evaluation spread (σ = ${fmt(e.noise.sigma)})`}. A difference beyond that noise can still vanish on other data or another split.`,
      evidence: same.slice(0, 10).map((g) => ({
        rule_id: "EX-09",
        artifact: "runs:params",
        text: `${describeConfig(g.params)}: ${g.scored.map((r) => r.name).join(", ")} all at ${fmt(g.mean)}; spread ${g.spread}.`,
        observed: g.spread,
        threshold: Number((1e-9 * Math.abs(g.mean!)).toPrecision(3)),
        noise_estimate: Number(e.noise.sigma.toPrecision(6)),
        n_points: g.scored.length,
        values: { runs: g.scored.length, mean: g.mean },
      })),
      severity: "info",
      confidence: 0.95,
      recommendation: {
        action: "To measure seed noise, make the seed matter (row/column subsampling, dropout, shuffled data order) or vary the data split (cross-validation folds) instead of the seed",
        rationale: "Identical replicates carry no information about how much results move between trainings; only replicates that differ can show whether a lead is real.",
        category: "training",
        effort: "medium",
      },
    }),
  ];
}
