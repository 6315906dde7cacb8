import type { Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { findChanceLevel } from "../chance.js";
import { curve } from "../curves.js";
import type { TrainingRun } from "../model.js";
import { fitLine } from "../stats.js";
import { fmt, metricArtifact, pct, round, type TrainingDetector } from "./detector.js";

/** The last quarter of the evaluations (at least 4) is the part of the curve judged. */
const TAIL_SHARE = 0.25;
const MIN_TAIL = 4;
const MIN_EVALUATIONS = 8;
/** The fitted improvement over the tail must exceed this many σ̂ of one evaluation: a plateau's wobble does not. */
const NOISE_MULTIPLE = 3;
/** …and this share of the curve's final level: a gain below it is not worth more training. */
const MIN_RELATIVE_GAIN = 0.01;

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
 * evaluations (≥ 4) the fitted line gains more than 3 σ̂ of one evaluation and more than 1 % of the final level.
 * The run stopped before converging (undertrained). Not for a run at chance level (training.chance_level).
 */
function detectStillImproving(run: TrainingRun): Finding[] {
  const loss = curve(run, "val", "loss");
  const c = loss ?? curve(run, "val", "accuracy");
  if (!c || c.values.length < MIN_EVALUATIONS || findChanceLevel(run)) return [];
  const goal = loss ? "min" : "max";
  const n = c.values.length;
  const { from, tail, gain, fit } = tailImprovement(c.steps, c.values, goal);
  const level = Math.abs(fit.intercept + fit.slope * c.steps[n - 1]!);
  const noiseBar = NOISE_MULTIPLE * c.noise;
  const levelBar = MIN_RELATIVE_GAIN * level;
  if (!(gain > noiseBar && gain > levelBar)) return [];
  const window: [number, number] = [c.steps[from]!, c.steps[n - 1]!];
  return [
    detectorFinding({
      id: "training.still_improving",
      title: "Still improving at the last evaluation: undertrained",
      description: `${c.name} was still ${goal === "min" ? "falling" : "rising"} when training stopped: over its last ${tail} evaluations (steps ${window[0]}–${window[1]}) the fitted trend gained ${fmt(gain)}, ${fmt(gain / Math.max(c.noise, Number.MIN_VALUE))}× the noise of one evaluation (σ̂ = ${fmt(c.noise)}) and ${pct(gain / Math.max(level, Number.MIN_VALUE))} of its level. The run ended before it converged, so its final value understates the configuration.`,
      evidence: [
        {
          rule_id: "TH-23",
          artifact: metricArtifact(c.name),
          text: `Fitted gain over the last ${tail} of ${n} evaluations ${fmt(gain)} (slope ${fmt(fit.slope)} per step, t = ${fmt(fit.t)}) against ${NOISE_MULTIPLE}σ̂ = ${fmt(noiseBar)} and ${pct(MIN_RELATIVE_GAIN)} of the level = ${fmt(levelBar)}.`,
          window,
          observed: round(gain),
          threshold: round(Math.max(noiseBar, levelBar)),
          noise_estimate: round(c.noise),
          n_points: n,
          values: { tail_slope: round(fit.slope), tail_t: round(fit.t), tail_points: tail, level: round(level) },
        },
      ],
      severity: "medium",
      confidence: scoreConfidence({ strength: gain, threshold: Math.max(noiseBar, levelBar), points: tail }),
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
    threshold: "val loss (else val accuracy), ≥ 8 evaluations: the line fitted to the last max(4, 25 %) evaluations gains > 3 σ̂ of one evaluation and > 1 % of the final level; not at chance level",
    severities: ["medium"],
    basis: "Tuning playbook: compute-bound runs still improving at the end; Prechelt on stopping criteria [K01][K10]",
  },
  detect: detectStillImproving,
};
