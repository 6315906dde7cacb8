import type { Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { findChanceLevel } from "../chance.js";
import { curve } from "../curves.js";
import type { TrainingRun } from "../model.js";
import { fitLine } from "../stats.js";
import { fmt, metricArtifact, pct, round, type TrainingDetector } from "./detector.js";

/** The last quarter of the evaluations (at least 6) is the part of the curve judged. */
const TAIL_SHARE = 0.25;
const MIN_TAIL = 6;
const MIN_EVALUATIONS = 12;
/**
 * The tail's fitted slope must be this many standard errors from flat, the error from the tail's own scatter about
 * its line (one-sided, under 1 % by chance at the fewest points): a plateau's wobble does not get there. Not σ̂ of
 * successive differences: on a short steep curve that reads the curvature as noise (a real 25-epoch torch run:
 * 0.022 from differences, 0.0009 about the line).
 */
const MIN_T = 4;
/** …and the fitted gain over the tail must exceed this share of the final level: less is not worth more training. */
const MIN_RELATIVE_GAIN = 0.01;
/**
 * A tail that gained this share of the final level or more is far from converged (medium); below it the run is
 * still creeping down, as most fixed-budget runs do, and more training would buy a few per cent (low). Seeded healthy
 * histories gain 3–17 % over their last quarter (10th–99th percentile); real torch runs stopped while their loss
 * still fell linearly gained 23–32 % (test/fixtures/sweeps/torch-lr.json).
 */
const FAR_FROM_CONVERGED_GAIN = 0.2;

/** The fitted improvement of a validation curve over its last part, against its noise. */
export function tailImprovement(steps: Float64Array, values: Float64Array, goal: "min" | "max") {
  const n = values.length;
  const tail = Math.max(MIN_TAIL, Math.ceil(TAIL_SHARE * n));
  const from = n - tail;
  const fit = fitLine(steps, values, from, n);
  const gain = (goal === "min" ? -fit.slope : fit.slope) * (steps[n - 1]! - steps[from]!);
  return { from, tail, gain, fit };
}

/**
 * TH-23: the validation curve was still improving at the last evaluation: over the last quarter of the
 * evaluations (≥ 6) the fitted line's slope is ≥ 4 standard errors from flat in the improving direction and gains
 * more than 1 % of the final level. The run stopped before converging (undertrained). Not for a run at chance
 * level (training.chance_level).
 */
function detectStillImproving(run: TrainingRun): Finding[] {
  const loss = curve(run, "val", "loss");
  const c = loss ?? curve(run, "val", "accuracy");
  if (!c || c.values.length < MIN_EVALUATIONS || findChanceLevel(run)) return [];
  const goal = loss ? "min" : "max";
  const n = c.values.length;
  const { from, tail, gain, fit } = tailImprovement(c.steps, c.values, goal);
  const t = goal === "min" ? -fit.t : fit.t;
  const level = Math.abs(fit.intercept + fit.slope * c.steps[n - 1]!);
  const levelBar = MIN_RELATIVE_GAIN * level;
  if (!(t >= MIN_T && gain > levelBar)) return [];
  const window: [number, number] = [c.steps[from]!, c.steps[n - 1]!];
  return [
    detectorFinding({
      id: "training.still_improving",
      title: "Still improving at the last evaluation: undertrained",
      description: `${c.name} was still ${goal === "min" ? "falling" : "rising"} when training stopped: over its last ${tail} evaluations (steps ${window[0]}–${window[1]}) the fitted trend gained ${fmt(gain)} (${pct(gain / Math.max(level, Number.MIN_VALUE))} of its level), ${fmt(t)} standard errors from flat given the evaluations' scatter about it (${fmt(fit.residualSd)}). The run ended before it converged, so its final value understates the configuration.`,
      evidence: [
        {
          rule_id: "TH-23",
          artifact: metricArtifact(c.name),
          text: `Fitted gain over the last ${tail} of ${n} evaluations ${fmt(gain)} (slope ${fmt(fit.slope)} per step, ${fmt(t)} standard errors from flat, needed ${MIN_T}) against ${pct(MIN_RELATIVE_GAIN)} of the level = ${fmt(levelBar)}.`,
          window,
          observed: round(t),
          threshold: MIN_T,
          noise_estimate: round(fit.residualSd),
          n_points: n,
          values: { tail_gain: round(gain), tail_slope: round(fit.slope), tail_points: tail, level: round(level), level_threshold: round(levelBar), curve_noise: round(c.noise) },
        },
      ],
      severity: gain >= FAR_FROM_CONVERGED_GAIN * level ? "medium" : "low",
      confidence: scoreConfidence({ strength: Math.min(t / MIN_T, gain / levelBar), threshold: 1, points: tail }),
      recommendation: {
        action: `Train longer (more epochs or steps) until ${c.name} flattens, or raise the learning rate so it converges within the budget; compare runs only once they have converged.`,
        rationale: "A validation curve still improving beyond its noise at the end is compute-bound (tuning playbook): more training or a larger step buys quality, and a comparison of unconverged runs ranks their speed, not their quality.",
        category: "training",
        effort: "low",
      },
    }),
  ];
}

export const stillImproving: TrainingDetector = {
  info: {
    id: "training.still_improving",
    rule: "TH-23",
    title: "Still improving at the end (undertrained)",
    threshold: "val loss (else val accuracy), ≥ 12 evaluations: the line fitted to the last max(6, 25 %) evaluations improves at ≥ 4 standard errors from flat (its scatter about the line) and gains > 1 % of the final level → low, ≥ 20 % → medium; not at chance level",
    severities: ["medium", "low"],
    basis: "Tuning playbook: compute-bound runs still improving at the end; Prechelt on stopping criteria [K01][K10]",
  },
  detect: detectStillImproving,
};
