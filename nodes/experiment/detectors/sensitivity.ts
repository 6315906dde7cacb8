import type { Finding } from "../../../domain/result.js";
import { detectorFinding } from "../../findings.js";
import { type Experiment, fmt } from "../model.js";
import { spearman } from "../stats.js";

/** Runs and distinct values a parameter needs before a rank correlation says anything. */
const MIN_RUNS = 5;
const MIN_VALUES = 3;

export interface Sensitivity {
  param: string;
  rho: number;
  low: number;
  high: number;
  n: number;
}

/** Spearman correlation of the objective with each numeric swept parameter, over the runs that finished. */
export function sensitivities(e: Experiment): Sensitivity[] {
  const scored = e.runs.filter((r) => r.score !== null);
  const out: Sensitivity[] = [];
  for (const p of e.swept) {
    const pairs = scored.map((r) => [Number(r.params[p]), r.score!] as const).filter(([x]) => Number.isFinite(x));
    if (pairs.length < MIN_RUNS || new Set(pairs.map(([x]) => x)).size < MIN_VALUES) continue;
    const s = spearman(pairs.map(([x]) => x), pairs.map(([, y]) => y));
    out.push({ param: p, ...s });
  }
  return out.sort((a, b) => Math.abs(b.rho) - Math.abs(a.rho) || a.param.localeCompare(b.param));
}

/** Which hyper-parameters move the objective, with the uncertainty of each rank correlation. */
export function detectSensitivity(e: Experiment): Finding[] {
  const all = sensitivities(e);
  if (all.length === 0) return [];
  const clear = all.filter((s) => s.low > 0 || s.high < 0);
  const better = e.objective.direction === "minimize" ? "lower" : "higher";
  const phrase = (s: Sensitivity) => `${s.param} (ρ = ${fmt(s.rho)}, 95 % interval ${fmt(s.low)} to ${fmt(s.high)}, ${s.n} runs)`;
  return [
    detectorFinding({
      id: "experiment.sensitivity",
      title: clear.length ? `The objective depends on ${clear.map((s) => s.param).join(", ")}` : "No swept parameter clearly moves the objective",
      description: `Rank correlation of ${e.objective.metric} (${better} is better) with each numeric swept parameter: ${all.map(phrase).join("; ")}. ${clear.length ? `Only ${clear.map((s) => s.param).join(", ")} ${clear.length > 1 ? "have intervals" : "has an interval"} excluding zero.` : "Every interval includes zero: at this many runs no parameter's effect is distinguishable from none."}`,
      evidence: all.map((s) => ({
        rule_id: "EX-03",
        artifact: `runs:params.${s.param}`,
        text: `Spearman ρ between ${s.param} and ${e.objective.metric}: ${fmt(s.rho)} (95 % interval ${fmt(s.low)} to ${fmt(s.high)}) over ${s.n} finished runs.`,
        observed: Number(s.rho.toFixed(4)),
        n_points: s.n,
        values: { ci_low: Number(s.low.toFixed(4)), ci_high: Number(s.high.toFixed(4)) },
      })),
      severity: "info",
      confidence: clear.length ? 0.75 : 0.5,
      recommendation: clear.length
        ? {
            action: `Spend the next trials on ${clear.map((s) => s.param).join(", ")}; fix the parameters with no detectable effect at a good value`,
            rationale: "Parameters whose rank correlation with the objective is clearly non-zero are where tuning pays; the rest can be fixed to save trials.",
            category: "training",
            effort: "low",
          }
        : null,
    }),
  ];
}
