import { severityRank } from "../../domain/result.js";
import type { RunDigest } from "./digest.js";
import { type Objective, objectiveSummary } from "./objective.js";
import type { MetricSummary } from "./reduce.js";

/** One run as the cross-run detectors see it. */
export interface ExperimentRun {
  name: string;
  params: Record<string, string>;
  /** The objective at its best (the checkpoint a tuner keeps, as the tuning playbook selects it), null when failed. */
  score: number | null;
  /** The objective's level at the end of training. */
  final: number | null;
  /** σ̂ of one evaluation of the objective, from the run's own curve. */
  noise: number;
  /** Why the run counts as failed (diverged, objective missing, analysis failed), or null. */
  failure: string | null;
  objective: MetricSummary | undefined;
  digest: RunDigest;
  /** Key of its configuration: every swept parameter but the seeds. */
  config: string;
}

/** Runs that share every hyper-parameter but the seed. */
export interface ConfigGroup {
  config: string;
  /** The parameters that define the group (seeds left out). */
  params: Record<string, string>;
  runs: ExperimentRun[];
  /** Runs of the group that finished with a score. */
  scored: ExperimentRun[];
  /** Mean score of the scored runs (null when none). */
  mean: number | null;
}

/** How large a difference between two configurations must be to be more than chance. */
export interface NoiseModel {
  /** σ of one run's score. */
  sigma: number;
  /** Degrees of freedom of that estimate (Infinity for the curve-based fallback). */
  df: number;
  /** "seeds": pooled over configurations repeated with several seeds; "curves": from the runs' own evaluation noise. */
  source: "seeds" | "curves";
  /** Configurations repeated with several seeds, and the runs in them. */
  replicatedConfigs: number;
  replicatedRuns: number;
}

export interface Experiment {
  objective: Objective;
  runs: ExperimentRun[];
  groups: ConfigGroup[];
  /** Parameters with two or more values across runs, seeds and bookkeeping left out. */
  swept: string[];
  seedParams: string[];
  noise: NoiseModel;
  baseline: string | null;
}

/** Parameter names that hold a random seed: runs differing only in them are replicates. */
const SEED = /(?:^|[._/-])(?:\w*seed|random_state|rng)$/i;
/** Parameter names that differ per run without changing training (paths, names, ids). */
const BOOKKEEPING = /(?:^|[._/-])(?:run_name|run_id|output_dir|logging_dir|log_dir|save_dir|dirpath|default_root_dir|experiment_name|hub_model_id|hub_token|report_to|tags?|notes?|timestamp|mlflow\.\w+)$/i;

export function isSeedParam(name: string): boolean {
  return SEED.test(name);
}

/** Per-run findings that mean the run did not train to a usable model. */
const FAILURE_FINDINGS = new Set(["training.divergence", "training.nonfinite_loss", "training.cuda_oom"]);

function failureOf(digest: RunDigest, objective: MetricSummary | undefined, o: Objective): string | null {
  const agentErrors = Object.entries(digest.errors);
  const trainLoss = digest.metrics.find((m) => m.name === "train/loss");
  if (objective?.endsNonFinite) return `${o.metric} ended non-finite after ${objective.points - objective.nonFinite} finite points`;
  if (trainLoss?.endsNonFinite) return `train/loss ended non-finite`;
  const failing = digest.findings.find((f) => FAILURE_FINDINGS.has(f.id) && severityRank(f.severity) <= severityRank("high"));
  if (failing) return `${failing.title} [${failing.id}]`;
  if (!objective || objective.min === null) {
    return agentErrors.length ? `analysis failed: ${agentErrors.map(([a, m]) => `${a}: ${m}`).join("; ").slice(0, 300)}` : `${o.metric} was not logged`;
  }
  return null;
}

/** Score of a run: its best objective value in the objective's direction. */
function scoreOf(s: MetricSummary | undefined, o: Objective): number | null {
  if (!s) return null;
  return o.direction === "minimize" ? s.min : s.max;
}

/** A difference oriented so that positive means worse (for the objective's direction). */
export function worseBy(o: Objective, candidate: number, reference: number): number {
  return o.direction === "minimize" ? candidate - reference : reference - candidate;
}

function noiseModel(groups: readonly ConfigGroup[], runs: readonly ExperimentRun[]): NoiseModel {
  let ss = 0;
  let df = 0;
  let replicatedConfigs = 0;
  let replicatedRuns = 0;
  for (const g of groups) {
    if (g.scored.length < 2 || g.mean === null) continue;
    replicatedConfigs++;
    replicatedRuns += g.scored.length;
    for (const r of g.scored) ss += (r.score! - g.mean) ** 2;
    df += g.scored.length - 1;
  }
  if (df > 0 && ss > 0) return { sigma: Math.sqrt(ss / df), df, source: "seeds", replicatedConfigs, replicatedRuns };
  // No replicate: a run's own evaluation-to-evaluation spread stands for its seed-to-seed spread (docs/experiments.md).
  const scored = runs.filter((r) => r.score !== null);
  const sigma = scored.length ? Math.sqrt(scored.reduce((s, r) => s + r.noise ** 2, 0) / scored.length) : 0;
  return { sigma, df: Number.POSITIVE_INFINITY, source: "curves", replicatedConfigs, replicatedRuns };
}

/** Builds the cross-run view: each run's score and failure, configuration groups and the noise between seeds. */
export function buildExperiment(digests: readonly RunDigest[], objective: Objective, baseline: string | null): Experiment {
  const names = [...new Set(digests.flatMap((d) => Object.keys(d.params)))].sort();
  const seedParams = names.filter(isSeedParam);
  const swept = names.filter((p) => !isSeedParam(p) && !BOOKKEEPING.test(p) && new Set(digests.map((d) => d.params[p] ?? "")).size > 1);
  const runs: ExperimentRun[] = [...digests]
    .sort((a, b) => a.index - b.index)
    .map((digest) => {
      const summary = objectiveSummary(digest.metrics, objective);
      const failure = failureOf(digest, summary, objective);
      const config = JSON.stringify(swept.map((p) => digest.params[p] ?? null));
      return {
        name: digest.name,
        params: digest.params,
        score: failure ? null : scoreOf(summary, objective),
        final: failure ? null : (summary?.final ?? null),
        noise: summary?.noise ?? 0,
        failure,
        objective: summary,
        digest,
        config,
      };
    });
  const byConfig = new Map<string, ExperimentRun[]>();
  for (const r of runs) byConfig.set(r.config, [...(byConfig.get(r.config) ?? []), r]);
  const groups: ConfigGroup[] = [...byConfig].map(([config, members]) => {
    const scored = members.filter((r) => r.score !== null);
    return {
      config,
      params: Object.fromEntries(swept.flatMap((p) => (members[0]!.params[p] === undefined ? [] : [[p, members[0]!.params[p]!]]))),
      runs: members,
      scored,
      mean: scored.length ? scored.reduce((s, r) => s + r.score!, 0) / scored.length : null,
    };
  });
  return { objective, runs, groups, swept, seedParams, noise: noiseModel(groups, runs), baseline };
}

/** The group a run belongs to. */
export function groupOf(e: Experiment, run: string): ConfigGroup | undefined {
  const r = e.runs.find((x) => x.name === run);
  return r && e.groups.find((g) => g.config === r.config);
}

/** The smallest difference between two configuration means (groups of `na` and `nb` runs) beyond noise, for a t or normal `quantile`. */
export function criticalDifference(noise: NoiseModel, na: number, nb: number, quantile: number): number {
  return quantile * noise.sigma * Math.sqrt(1 / na + 1 / nb);
}

/** "lr=0.003, batch_size=64": a configuration named by its parameters. */
export function describeConfig(params: Record<string, string>): string {
  const parts = Object.entries(params).map(([k, v]) => `${k}=${v}`);
  return parts.length ? parts.join(", ") : "(one configuration)";
}

/** A number for text: 4 significant digits. */
export function fmt(v: number | null): string {
  return v === null ? "n/a" : Number(v.toPrecision(4)).toString();
}
