import type { Evidence, Finding } from "../../../domain/result.js";
import { detectorFinding } from "../../findings.js";
import { type Experiment, fmt, worseBy } from "../model.js";

/** Distinct values a parameter must take for its range to have an inside and edges. */
const MIN_VALUES = 3;

interface Edge {
  param: string;
  /** The value with the best configuration, at one end of the range tried. */
  best: number;
  side: "lowest" | "highest";
  /** Its neighbour inside the range, and the best mean objective at each. */
  neighbour: number;
  bestScore: number;
  neighbourScore: number;
  values: number[];
}

/** For each numeric swept parameter, its value whose best configuration scores best, when that value is an end of the range tried. */
export function boundaryOptima(e: Experiment): Edge[] {
  const out: Edge[] = [];
  for (const p of e.swept) {
    const tried = [...new Set(e.runs.map((r) => Number(r.params[p])))];
    if (tried.length < MIN_VALUES || !tried.every(Number.isFinite)) continue;
    tried.sort((a, b) => a - b);
    // Best configuration per value (the other parameters at their best, as the playbook's basin plots read it).
    const bestAt = new Map<number, number>();
    for (const g of e.groups) {
      const v = Number(g.params[p]);
      if (g.mean === null) continue;
      const seen = bestAt.get(v);
      if (seen === undefined || worseBy(e.objective, g.mean, seen) < 0) bestAt.set(v, g.mean);
    }
    const scored = tried.filter((v) => bestAt.has(v));
    if (scored.length < MIN_VALUES) continue;
    const best = scored.reduce((a, b) => (worseBy(e.objective, bestAt.get(b)!, bestAt.get(a)!) < 0 ? b : a));
    const side = best === tried[0] ? "lowest" : best === tried[tried.length - 1] ? "highest" : null;
    if (!side) continue;
    const neighbour = side === "lowest" ? scored[1]! : scored[scored.length - 2]!;
    out.push({ param: p, best, side, neighbour, bestScore: bestAt.get(best)!, neighbourScore: bestAt.get(neighbour)!, values: tried });
  }
  return out;
}

/** The next value to try beyond an edge: one more step of the spacing used there (geometric when the range spans a decade). */
export function beyond(edge: Edge): number {
  const [lo, hi] = [edge.values[0]!, edge.values[edge.values.length - 1]!];
  const geometric = lo > 0 && hi / lo >= 10;
  const step = geometric ? edge.best / edge.neighbour : edge.best - edge.neighbour;
  return Number((geometric ? edge.best * step : edge.best + step).toPrecision(3));
}

/** The best value of a swept hyper-parameter is the smallest or largest tried: the optimum may lie outside the range. */
export function detectBoundaryOptimum(e: Experiment): Finding[] {
  return boundaryOptima(e).map((edge) => {
    const gain = worseBy(e.objective, edge.neighbourScore, edge.bestScore);
    const clear = e.noise.sigma > 0 && gain > 2 * e.noise.sigma;
    const next = beyond(edge);
    const evidence: Evidence = {
      rule_id: "EX-02",
      artifact: `runs:params.${edge.param}`,
      text: `Best ${e.objective.metric} ${fmt(edge.bestScore)} at ${edge.param} = ${edge.best}, the ${edge.side} of ${edge.values.length} values tried (${edge.values.map((v) => fmt(v)).join(", ")}); ${fmt(edge.neighbourScore)} at the next value ${edge.neighbour}.`,
      observed: edge.best,
      threshold: edge.side === "lowest" ? edge.values[0]! : edge.values[edge.values.length - 1]!,
      noise_estimate: Number(e.noise.sigma.toPrecision(6)),
      n_points: edge.values.length,
      values: { best_score: edge.bestScore, neighbour: edge.neighbour, neighbour_score: edge.neighbourScore, suggested_next: next },
    };
    return detectorFinding({
      id: "experiment.boundary_optimum",
      title: `Best ${edge.param} is at the edge of the range tried`,
      description: `The best ${e.objective.metric} comes at ${edge.param} = ${edge.best}, the ${edge.side} value tried${clear ? `, clearly ahead of ${edge.neighbour} (by ${fmt(gain)}, more than twice the noise ${fmt(e.noise.sigma)})` : `, ahead of ${edge.neighbour} by ${fmt(gain)}`}; the optimum may lie beyond it.`,
      evidence: [evidence],
      severity: clear ? "medium" : "low",
      confidence: clear ? 0.8 : 0.55,
      recommendation: {
        action: `Extend the search range of ${edge.param} past ${edge.best} (try ${next}) until the best value is inside the range`,
        rationale: "When the best trials sit on the boundary of a search space, the space is too narrow; widen it before concluding (Google's Deep Learning Tuning Playbook).",
        category: "training",
        effort: "medium",
      },
    });
  });
}
