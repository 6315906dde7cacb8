import type { Finding } from "../../../domain/result.js";
import { detectorFinding } from "../../findings.js";
import { type Experiment, fmt } from "../model.js";

/** No configuration was run with two seeds: the noise between runs had to be estimated from their curves. */
export function detectNoSeedReplicates(e: Experiment): Finding[] {
  const scored = e.runs.filter((r) => r.score !== null).length;
  if (e.noise.source === "seeds" || scored < 2) return [];
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
