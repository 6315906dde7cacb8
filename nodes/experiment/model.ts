import { severityRank } from "../../domain/result.js";
import type { RunDigest } from "./digest.js";
import { type Objective, objectiveSummary } from "./objective.js";
import type { MetricSummary } from "./reduce.js";
import { tQuantile } from "./stats.js";

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
  /** Sample standard deviation of the scores over the group's seeds (null with fewer than 2 scored runs). */
  spread: number | null;
  /** Replicates whose scores agree to float rounding: the training is deterministic, the seed changed nothing. */
  deterministic: boolean;
}

/**
 * The sweep's noise as a summary (pooled over the configurations repeated with seeds that vary): what the report
 * states and the boundary rule's scale. Each comparison of two configurations uses `pairNoise` instead.
 */
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
  /** Repeated configurations whose seeds gave the same score to float rounding (left out of σ). */
  deterministicConfigs: number;
}

/** The noise of one difference between two configuration means. */
export interface PairNoise {
  /** Standard error of the difference of the two means. */
  se: number;
  /** Welch–Satterthwaite degrees of freedom (Infinity for curve noise). */
  df: number;
  source: "seeds" | "curves";
  /** σ of one run's score this stands for: se / √(1/n₁ + 1/n₂). */
  sigma: number;
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

/**
 * A spread this small against the score is float rounding, not seed noise: bit-identical runs averaged in a
 * different order differ by ~1e-16 relative; any real seed effect is many orders above it.
 */
const ROUNDING = 1e-9;

/** The mean square of the runs' own evaluation noise: the stand-in for seed noise when seeds give none. */
function curveVariance(runs: readonly ExperimentRun[]): number {
  return runs.length ? runs.reduce((s, r) => s + r.noise ** 2, 0) / runs.length : 0;
}

function noiseModel(groups: readonly ConfigGroup[], runs: readonly ExperimentRun[]): NoiseModel {
  let ss = 0;
  let df = 0;
  let replicatedConfigs = 0;
  let replicatedRuns = 0;
  let deterministicConfigs = 0;
  for (const g of groups) {
    if (g.spread === null || g.mean === null) continue;
    if (g.deterministic) {
      deterministicConfigs++;
      continue;
    }
    replicatedConfigs++;
    replicatedRuns += g.scored.length;
    ss += g.spread ** 2 * (g.scored.length - 1);
    df += g.scored.length - 1;
  }
  if (df > 0 && ss > 0) return { sigma: Math.sqrt(ss / df), df, source: "seeds", replicatedConfigs, replicatedRuns, deterministicConfigs };
  // No replicate that varies: a run's own evaluation-to-evaluation spread stands for its seed-to-seed spread (docs/experiments.md).
  const sigma = Math.sqrt(curveVariance(runs.filter((r) => r.score !== null)));
  return { sigma, df: Number.POSITIVE_INFINITY, source: "curves", replicatedConfigs, replicatedRuns, deterministicConfigs };
}

/** A group's own seed variance and its degrees of freedom, or null (one run, or deterministic replicates). */
function seedVariance(g: ConfigGroup): { v: number; df: number } | null {
  return g.spread === null || g.deterministic ? null : { v: g.spread ** 2, df: g.scored.length - 1 };
}

/**
 * The noise of the difference between two configurations' means, from those two configurations only (Welch):
 * both repeated with seeds that vary → se² = s₁²/n₁ + s₂²/n₂ with Welch–Satterthwaite df; one of them → its
 * variance stands for both, with its df; neither (single runs, deterministic seeds) → the runs' own curve noise.
 */
export function pairNoise(a: ConfigGroup, b: ConfigGroup): PairNoise {
  const na = Math.max(1, a.scored.length);
  const nb = Math.max(1, b.scored.length);
  const both = Math.sqrt(1 / na + 1 / nb);
  const va = seedVariance(a);
  const vb = seedVariance(b);
  if (va && vb) {
    const [ta, tb] = [va.v / na, vb.v / nb];
    const se = Math.sqrt(ta + tb);
    const denominator = ta ** 2 / va.df + tb ** 2 / vb.df;
    return { se, df: denominator > 0 ? (ta + tb) ** 2 / denominator : va.df + vb.df, source: "seeds", sigma: se / both };
  }
  const one = va ?? vb;
  if (one) return { se: Math.sqrt(one.v) * both, df: one.df, source: "seeds", sigma: Math.sqrt(one.v) };
  const se = Math.sqrt(curveVariance(a.scored) / na + curveVariance(b.scored) / nb);
  return { se, df: Number.POSITIVE_INFINITY, source: "curves", sigma: se / both };
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
    const mean = scored.length ? scored.reduce((s, r) => s + r.score!, 0) / scored.length : null;
    const spread = mean !== null && scored.length > 1 ? Math.sqrt(scored.reduce((s, r) => s + (r.score! - mean) ** 2, 0) / (scored.length - 1)) : null;
    return {
      config,
      params: Object.fromEntries(swept.flatMap((p) => (members[0]!.params[p] === undefined ? [] : [[p, members[0]!.params[p]!]]))),
      runs: members,
      scored,
      mean,
      spread,
      deterministic: spread !== null && spread <= ROUNDING * Math.max(Math.abs(mean!), Number.MIN_VALUE),
    };
  });
  return { objective, runs, groups, swept, seedParams, noise: noiseModel(groups, runs), baseline };
}

/** The group a run belongs to. */
export function groupOf(e: Experiment, run: string): ConfigGroup | undefined {
  const r = e.runs.find((x) => x.name === run);
  return r && e.groups.find((g) => g.config === r.config);
}

/** The smallest difference between two configuration means beyond noise at one-sided level `p` (t with the pair's df). */
export function criticalDifference(noise: PairNoise, p: number): number {
  return noise.se === 0 ? 0 : tQuantile(p, Math.max(1, noise.df)) * noise.se;
}

/** "σ = 0.01 from these configurations' seeds, df 3.2": where one comparison's noise came from. */
export function describePairNoise(n: PairNoise): string {
  return n.source === "seeds" ? `σ = ${fmt(n.sigma)} from these configurations' seeds, df ${fmt(n.df)}` : `σ = ${fmt(n.sigma)} from the runs' own curves`;
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
