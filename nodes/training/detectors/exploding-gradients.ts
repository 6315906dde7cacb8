import type { Evidence, Finding } from "../../../domain/result.js";
import { detectorFinding, MAX_CONFIDENCE, scoreConfidence } from "../../findings.js";
import { countBefore, type Curve, curve, curveLogValues, curveOf, nonFiniteCount, pickSeries } from "../curves.js";
import { baselineBlock, type Excursion, findExcursions } from "../excursions.js";
import type { TrainingRun } from "../model.js";
import { allPositive, firstIndexWhereFinite, fitLine, median } from "../stats.js";
import { fmt, metricArtifact, round, type TrainingDetector } from "./detector.js";

/** A gradient-norm spike is > 10× the rolling median (SageMaker/AutoTrainer explode rules). */
const SPIKE_FACTOR = 10;

/** Mean of a curve's values at steps in [from, to), NaN when none (steps ascend: one index range). */
function meanBetween(c: Curve, from: number, to: number): number {
  let sum = 0;
  const lo = countBefore(c.steps, from);
  const hi = countBefore(c.steps, to);
  for (let i = lo; i < hi; i++) sum += c.values[i]!;
  return hi > lo ? sum / (hi - lo) : Number.NaN;
}

/**
 * A jump of the gradient norm that never comes back down while the training loss falls across it is the model
 * leaving its initial plateau (near-uniform outputs give tiny gradients; once it learns they are larger for good),
 * a new level rather than a spike: the loss over the block after the jump is below the block before it.
 */
function leavesPlateau(spike: Excursion, g: Curve, loss: Curve | undefined): boolean {
  if (spike.recovered !== false || !loss) return false;
  const b = baselineBlock(g.values.length);
  const start = g.steps[spike.start]!;
  const before = meanBetween(loss, g.steps[Math.max(0, spike.start - b)]!, start);
  const after = meanBetween(loss, start, g.steps[Math.min(g.values.length - 1, spike.end + b)]! + 1);
  return after < before;
}

/** TH-11: non-finite gradient norms (critical), spikes > 10× the rolling median, or sustained ≥ 10× growth that
 * is still going on in the second half of the run. */
function detectExplodingGradients(run: TrainingRun): Finding[] {
  const series = pickSeries(run, "none", "grad_norm", "fine");
  if (!series) return [];
  const evidence: Evidence[] = [];
  const artifact = metricArtifact(series.name);
  const badCount = nonFiniteCount(series);
  const bad = badCount > 0 ? firstIndexWhereFinite(series.values, false) : -1;
  if (bad >= 0) {
    evidence.push({ rule_id: "TH-11", artifact, text: `${series.name} is ${series.values[bad]} at step ${series.steps[bad]} (${badCount} non-finite of ${series.values.length}).`, window: [series.steps[bad]!, series.steps[bad]!], observed: String(series.values[bad]), threshold: "finite", n_points: series.values.length });
  }
  const g = curveOf(series, "fine");
  const positive = allPositive(g.values);
  let growth = 1;
  if (positive && g.values.length >= 20) {
    const y = curveLogValues(g);
    const loss = curve(run, "train", "loss", "fine");
    const spikes = findExcursions(y, { cutoff: (level) => level + Math.log(SPIKE_FACTOR), recoverWithin: Math.max(3, Math.ceil(0.05 * y.length)) }).filter((s) => !leavesPlateau(s, g, loss));
    if (spikes.length > 0) {
      const worst = spikes.reduce((a, b) => (y[b.peak]! - b.level > y[a.peak]! - a.level ? b : a));
      const factor = Math.exp(y[worst.peak]! - worst.level);
      growth = Math.max(growth, factor / SPIKE_FACTOR);
      evidence.push({
        rule_id: "TH-11",
        artifact,
        text: `${spikes.length} spike(s) above ${SPIKE_FACTOR}× the rolling median, at steps ${spikes.slice(0, 8).map((s) => g.steps[s.peak]).join(", ")}${spikes.length > 8 ? ", …" : ""}; the largest reaches ${fmt(g.values[worst.peak]!)}, ${fmt(factor)}× the median before it.`,
        window: [g.steps[spikes[0]!.peak]!, g.steps[spikes[spikes.length - 1]!.peak]!],
        observed: round(factor),
        threshold: SPIKE_FACTOR,
        n_points: g.values.length,
        values: { spikes: spikes.length },
      });
    }
    const n = y.length;
    const tenth = Math.max(3, Math.ceil(0.1 * n));
    const rise = median(g.values, n - tenth, n) / median(g.values, 0, tenth);
    // Still growing over the second half: a norm that rises while the model leaves its initial plateau (near-
    // uniform outputs give tiny gradients) and then settles is learning, not an explosion.
    const half = Math.floor(n / 2);
    if (rise >= SPIKE_FACTOR && fitLine(g.steps, y).t > 3 && fitLine(g.steps, y, half, n).t > 3) {
      growth = Math.max(growth, rise / SPIKE_FACTOR);
      evidence.push({ rule_id: "TH-11", artifact, text: `${g.name} grows steadily: its median over the last 10 % of steps is ${fmt(rise)}× that of the first 10 %.`, window: [g.steps[0]!, g.steps[n - 1]!], observed: round(rise), threshold: SPIKE_FACTOR, n_points: n });
    }
  }
  if (evidence.length === 0) return [];
  const nonfinite = bad >= 0;
  return [
    detectorFinding({
      id: "training.exploding_gradients",
      title: nonfinite ? "Gradient norm became non-finite" : "Exploding gradients",
      description: nonfinite
        ? `The gradient norm became ${series.values[bad]} at step ${series.steps[bad]}: an update overflowed, so weights after it may be corrupt.`
        : "The gradient norm jumps by more than an order of magnitude: some updates are huge, which destabilizes training.",
      evidence,
      severity: nonfinite ? "critical" : "high",
      confidence: nonfinite ? MAX_CONFIDENCE : scoreConfidence({ strength: growth, threshold: 1, points: g.values.length, corroborations: evidence.length - 1 }),
      recommendation: {
        action: "Clip gradients (threshold ≈ 90th percentile of the unclipped norms), lower the learning rate and warm up; with fp16 use dynamic loss scaling or switch to bf16.",
        rationale: "Norm clipping bounds each update, and a smaller or warmed-up learning rate keeps the curvature from amplifying the steps.",
        category: "training",
        effort: "low",
      },
    }),
  ];
}

export const explodingGradients: TrainingDetector = {
  info: {
    id: "training.exploding_gradients",
    rule: "TH-11",
    title: "Exploding gradients",
    threshold: "any non-finite grad norm (critical); spikes > 10× the rolling median (not a jump to a new level while the train loss falls across it: the model leaving its initial plateau), or last-10 % median ≥ 10× the first-10 % with a significant log-slope, overall and over the second half (a norm that rises as the model leaves its initial plateau, then settles, is learning) (high)",
    severities: ["critical", "high"],
    basis: "Pascanu et al. on exploding gradients and norm clipping; tuning playbook clipping [K01][K11][K36]",
  },
  detect: detectExplodingGradients,
};
