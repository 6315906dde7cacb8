import type { RunDigest } from "../../nodes/experiment/digest.js";
import { detectExperimentFindings } from "../../nodes/experiment/detect.js";
import { buildExperiment } from "../../nodes/experiment/model.js";
import { resolveObjective } from "../../nodes/experiment/objective.js";
import { summarizeRun } from "../../nodes/experiment/reduce.js";
import { parseTrainingArtifact } from "../../nodes/training/parse/index.js";
import { DEFAULT_NOISE, type RunSpec, type SweepNoise, syntheticRun } from "./synthetic-sweep.js";

/**
 * The cross-run half of POST /v1/compare without the per-run graph: each synthetic run parsed and reduced as the
 * service reduces it (no per-run findings), then the experiment detectors. For measuring them over many sweeps.
 */
export function digestOf(spec: RunSpec, index: number, noise: SweepNoise = DEFAULT_NOISE): RunDigest {
  const run = syntheticRun(spec, noise);
  const parsed = parseTrainingArtifact(run.training_artifacts as Record<string, unknown>);
  const params = Object.fromEntries(Object.entries(run.params).map(([k, v]) => [k, String(v)]));
  return { name: spec.name, index, params, metrics: summarizeRun(parsed, null), summary: null, findings: [], errors: {} };
}

/** Detects over synthetic runs, the first named run (or `baseline`) as baseline. */
export function judge(specs: readonly RunSpec[], baseline: string | null, noise: SweepNoise = DEFAULT_NOISE) {
  const digests = specs.map((s, i) => digestOf(s, i, noise));
  const objective = resolveObjective(null, digests.map((d) => d.metrics))!;
  const experiment = buildExperiment(digests, objective, baseline);
  return { experiment, ...detectExperimentFindings(experiment) };
}

export interface RegressionRates {
  pairs: number;
  /** Share of seed-only pairs called a regression. */
  falseRegressionRate: number;
  /** Share of pairs whose candidate is `worse` (relative) worse, called a regression. */
  detectionRate: number;
}

/**
 * Pairs of configurations, `seeds` runs each: a baseline and a candidate that differ only by seed (false
 * regressions), and the same with the candidate's true objective `worse` higher (detections). With one seed the
 * noise comes from the runs' curves; with more, from the seeds.
 */
export function measureRegression(pairs: number, worse: number, options: { noise?: SweepNoise; seeds?: number; firstSeed?: number } = {}): RegressionRates {
  const noise = options.noise ?? DEFAULT_NOISE;
  const k = options.seeds ?? 1;
  let falseAlarms = 0;
  let detected = 0;
  for (let i = 0; i < pairs; i++) {
    const first = (options.firstSeed ?? 1) + 2 * k * i;
    const group = (name: string, change: string, level: number, from: number): RunSpec[] =>
      Array.from({ length: k }, (_, j) => ({ name: `${name}-${j}`, params: { lr: 0.001, change }, level, seed: from + j }));
    const base = group("main", "a", 0.5, first);
    if (judge([...base, ...group("candidate", "b", 0.5, first + k)], "main-0", noise).comparison?.regression) falseAlarms++;
    if (judge([...base, ...group("candidate", "b", 0.5 * (1 + worse), first + k)], "main-0", noise).comparison?.regression) detected++;
  }
  return { pairs, falseRegressionRate: falseAlarms / pairs, detectionRate: detected / pairs };
}
