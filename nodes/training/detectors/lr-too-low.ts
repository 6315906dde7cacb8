import type { Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { curve } from "../curves.js";
import { peakLearningRate } from "../learning-rate.js";
import type { TrainingRun } from "../model.js";
import { lossProgress } from "../progress.js";
import { optimizerFamily } from "../run-config.js";
import { fitLine } from "../stats.js";
import { fmt, metricArtifact, pct, round, type TrainingDetector } from "./detector.js";
import { MIN_IMPROVEMENT } from "./no-learning.js";

/** Total improvement below which a still-falling loss means the steps are too small. */
const SMALL_IMPROVEMENT = 0.1;
/** Adam-family learning rates below this are very low (UMLAUT). */
const LOW_ADAM_LR = 1e-5;

/**
 * TH-09: the training loss is still falling at a steady, significant rate at the end (second-half slope t < −3 and
 * at least half the first-half slope: no curvature) while the run improved < 10 % overall or used an Adam
 * learning rate < 1e-5.
 */
function detectLrTooLow(run: TrainingRun): Finding[] {
  const c = curve(run, "train", "loss");
  const p = c && lossProgress(c);
  if (!c || !p || c.values.length < 10 || p.relative < MIN_IMPROVEMENT) return [];
  const n = c.values.length;
  const half = Math.floor(n / 2);
  const early = fitLine(c.steps, c.values, 0, half);
  const late = fitLine(c.steps, c.values, n - half, n);
  const linear = late.t < -3 && early.slope < 0 && late.slope / early.slope >= 0.5;
  const peak = peakLearningRate(run);
  const tinyLr = optimizerFamily(run) === "adam" && peak !== null && peak.value < LOW_ADAM_LR;
  if (!linear || (p.relative >= SMALL_IMPROVEMENT && !tinyLr)) return [];
  return [
    detectorFinding({
      id: "training.lr_too_low",
      title: "Learning rate too low",
      description: `${c.name} is still falling at an almost constant rate at the end of training, having improved only ${pct(p.relative)}${tinyLr ? ` with a peak learning rate of ${fmt(peak!.value)}` : ""}: the steps are too small, so the run ends long before convergence.`,
      evidence: [
        {
          rule_id: "TH-09",
          artifact: metricArtifact(c.name),
          text: `Slope over the second half ${fmt(late.slope)} per step (t = ${fmt(late.t)}), ${fmt(late.slope / early.slope)}× the first half's; total improvement ${pct(p.relative)}${peak ? `; peak lr ${fmt(peak.value)}` : ""}.`,
          window: [c.steps[n - half]!, c.steps[n - 1]!],
          observed: round(p.relative),
          threshold: SMALL_IMPROVEMENT,
          noise_estimate: round(c.noise),
          n_points: n,
          values: { late_slope: round(late.slope), late_t: round(late.t), slope_ratio: round(late.slope / early.slope), peak_lr: peak ? peak.value : null },
        },
      ],
      severity: "medium",
      confidence: scoreConfidence({ strength: -late.t, threshold: 3, points: n, benignPossible: !tinyLr }),
      recommendation: {
        action: "Raise the learning rate (a range test shows how far), or train longer if compute allows: the loss was still improving linearly when the run stopped.",
        rationale: "A loss still falling in a straight line at the end is compute-bound (tuning playbook); a larger step gets further in the same budget.",
        category: "training",
        effort: "low",
      },
    }),
  ];
}

export const lrTooLow: TrainingDetector = {
  info: {
    id: "training.lr_too_low",
    rule: "TH-09",
    title: "Learning rate too low",
    threshold: "train loss second-half slope t < −3 and ≥ 0.5× the first-half slope (no curvature), with total improvement < 10 % or Adam peak lr < 1e-5",
    severities: ["medium"],
    basis: "LR range test; tuning playbook 'still improving at the end'; UMLAUT lr bounds [K01][K03]",
  },
  detect: detectLrTooLow,
};
