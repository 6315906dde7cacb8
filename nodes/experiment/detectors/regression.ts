import type { Finding } from "../../../domain/result.js";
import { severityRank } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type ConfigGroup, criticalDifference, describeConfig, describePairNoise, type Experiment, type ExperimentRun, fmt, groupOf, pairNoise, worseBy } from "../model.js";

/** One-sided 99 %: the CI gate fails a change only on a worsening this unlikely under seed noise alone. */
const LEVEL = 0.99;

/** One configuration judged against the baseline's (positive differences are worse). */
export interface CandidateComparison {
  config: string;
  params: Record<string, string>;
  runs: string[];
  failed: string[];
  /** Mean best and final objective, and their worsening against the baseline's. */
  best: number | null;
  final: number | null;
  worse_best: number | null;
  worse_final: number | null;
  /** The smallest worsening that is more than seed noise at the one-sided 99 % level. */
  critical: number;
  /** The noise of this comparison: from the candidate's and the baseline's runs only (Welch). */
  noise: { sigma: number; df: number | null; source: "seeds" | "curves" };
  /** Steps the candidate and the baseline took to first reach the baseline's best level (within `critical`); null: never. */
  steps_to_baseline_level: number | null;
  baseline_steps_to_level: number | null;
  /** Per-run finding ids (medium or worse) the candidate's runs have and the baseline's do not. */
  new_findings: string[];
  regression: boolean;
  reasons: string[];
}

export interface BaselineComparison {
  baseline: string;
  baseline_runs: string[];
  baseline_best: number | null;
  baseline_final: number | null;
  noise: { sigma: number; df: number | null; source: string };
  candidates: CandidateComparison[];
  regression: boolean;
}

const meanOf = (xs: ReadonlyArray<number | null>) => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? v.reduce((s, x) => s + x, 0) / v.length : null;
};

/** First step at which a run's objective curve is at least as good as `level`. */
function stepToReach(run: ExperimentRun | undefined, level: number, e: Experiment): number | null {
  const c = run?.objective?.curve;
  if (!c) return null;
  for (let i = 0; i < c.values.length; i++) if (worseBy(e.objective, c.values[i]!, level) <= 0) return c.steps[i]!;
  return null;
}

function mediumOrWorse(runs: readonly ExperimentRun[]): Set<string> {
  return new Set(runs.flatMap((r) => r.digest.findings.filter((f) => severityRank(f.severity) <= severityRank("medium")).map((f) => f.id)));
}

function compareGroup(e: Experiment, base: ConfigGroup, g: ConfigGroup): CandidateComparison {
  const best = g.mean;
  const final = meanOf(g.scored.map((r) => r.final));
  const baseFinal = meanOf(base.scored.map((r) => r.final));
  const noise = pairNoise(g, base);
  const critical = criticalDifference(noise, LEVEL);
  const worseBest = best !== null && base.mean !== null ? worseBy(e.objective, best, base.mean) : null;
  const worseFinal = final !== null && baseFinal !== null ? worseBy(e.objective, final, baseFinal) : null;
  const level = base.mean === null ? null : e.objective.direction === "minimize" ? base.mean + critical : base.mean - critical;
  const baseSeen = mediumOrWorse(base.runs);
  const newFindings = [...mediumOrWorse(g.runs)].filter((id) => !baseSeen.has(id)).sort();
  const failed = g.runs.filter((r) => r.failure !== null).map((r) => r.name);
  const reasons: string[] = [];
  if (base.mean !== null && g.scored.length === 0) reasons.push(`every run failed (${g.runs.map((r) => r.failure).join("; ").slice(0, 200)}) while the baseline finished`);
  // Both the best and the final level must be worse beyond noise: one alone is as often a lucky evaluation.
  if (worseBest !== null && worseFinal !== null && worseBest > critical && worseFinal > critical) {
    reasons.push(`best ${e.objective.metric} ${fmt(best)} vs ${fmt(base.mean)} and final ${fmt(final)} vs ${fmt(baseFinal)}: worse by ${fmt(worseBest)} and ${fmt(worseFinal)}, both beyond the noise threshold ${fmt(critical)} (${describePairNoise(noise)})`);
  }
  const stepsTo = level === null ? null : stepToReach(g.scored[0], level, e);
  const baseSteps = level === null ? null : stepToReach(base.scored[0], level, e);
  if (reasons.length && level !== null && baseSteps !== null) reasons.push(stepsTo === null ? `never reached the baseline's level ${fmt(level)} (the baseline did at step ${baseSteps})` : `reached the baseline's level at step ${stepsTo} (baseline: ${baseSteps})`);
  if (reasons.length && newFindings.length) reasons.push(`new per-run findings: ${newFindings.join(", ")}`);
  return {
    config: g.config,
    params: g.params,
    runs: g.runs.map((r) => r.name),
    failed,
    best,
    final,
    worse_best: worseBest,
    worse_final: worseFinal,
    critical,
    noise: { sigma: noise.sigma, df: Number.isFinite(noise.df) ? noise.df : null, source: noise.source },
    steps_to_baseline_level: stepsTo,
    baseline_steps_to_level: baseSteps,
    new_findings: newFindings,
    regression: reasons.length > 0,
    reasons,
  };
}

/** Every other configuration against the baseline's (the baseline run and its seed replicates); null without a baseline. */
export function compareWithBaseline(e: Experiment): BaselineComparison | null {
  if (!e.baseline) return null;
  const base = groupOf(e, e.baseline);
  if (!base) return null;
  const candidates = e.groups.filter((g) => g !== base).map((g) => compareGroup(e, base, g));
  return {
    baseline: e.baseline,
    baseline_runs: base.runs.map((r) => r.name),
    baseline_best: base.mean,
    baseline_final: meanOf(base.scored.map((r) => r.final)),
    noise: { sigma: e.noise.sigma, df: Number.isFinite(e.noise.df) ? e.noise.df : null, source: e.noise.source },
    candidates,
    regression: candidates.some((c) => c.regression),
  };
}

/** A configuration worse than the baseline beyond the noise between seeds: the change made training worse. */
export function detectRegression(e: Experiment, comparison: BaselineComparison | null): Finding[] {
  const regressed = comparison?.candidates.filter((c) => c.regression) ?? [];
  if (!comparison || regressed.length === 0) return [];
  const allFailed = regressed.some((c) => c.best === null);
  const strongest = Math.max(...regressed.map((c) => (c.worse_best ?? 0) / Math.max(c.critical, Number.EPSILON)));
  return [
    detectorFinding({
      id: "experiment.regression",
      title: `Worse than the baseline ${comparison.baseline} beyond seed noise`,
      description: `${regressed.length} configuration(s) regress against the baseline ${comparison.baseline} on ${e.objective.metric}: ${regressed
        .slice(0, 4)
        .map((c) => `${c.runs.join(", ")} (${describeConfig(c.params)}): ${c.reasons.join("; ")}`)
        .join(". ")}.`,
      evidence: regressed.slice(0, 10).map((c) => ({
        rule_id: "EX-05",
        artifact: `runs:${e.objective.metric}`,
        text: `${c.runs.join(", ")}: ${c.reasons.join("; ")}.`,
        observed: c.worse_best === null ? null : Number(c.worse_best.toPrecision(6)),
        threshold: Number(c.critical.toPrecision(6)),
        noise_estimate: Number(c.noise.sigma.toPrecision(6)),
        n_points: c.runs.length + comparison.baseline_runs.length,
        values: { candidate_best: c.best, baseline_best: comparison.baseline_best, candidate_final: c.final, baseline_final: comparison.baseline_final, noise_source: c.noise.source, df: c.noise.df },
      })),
      severity: allFailed ? "critical" : "high",
      confidence: allFailed ? 0.9 : scoreConfidence({ strength: strongest, threshold: 1, points: e.runs.length, benignPossible: regressed.some((c) => c.noise.source === "curves") }),
      recommendation: {
        action: `Find what the regressing change does to ${e.objective.metric} before merging it; rerun it and the baseline with 3 seeds each if the gap is close to the threshold`,
        rationale: "The difference is larger than what seeds alone produce at the 99 % level, so it is most likely caused by the change.",
        category: "training",
        effort: "medium",
      },
    }),
  ];
}
