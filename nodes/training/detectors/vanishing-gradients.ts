import type { Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { curve } from "../curves.js";
import type { TrainingRun } from "../model.js";
import { lossProgress } from "../progress.js";
import { median } from "../stats.js";
import { fmt, metricArtifact, round, type TrainingDetector } from "./detector.js";
import { MIN_IMPROVEMENT } from "./no-learning.js";
import { findPlateau } from "./plateau.js";

/** Late/early ratio of the global gradient norm that counts as vanished (AutoTrainer's 1e-3, over time). */
const COLLAPSE_RATIO = 1e-3;
/** A gradient norm this small is vanished whatever its start (SageMaker/DeepDiagnosis mean |g| < 1e-7). */
const TINY_NORM = 1e-7;

/** Whether the training loss has stalled: < 1 % improvement over the second half, or a plateau. */
function lossStalled(run: TrainingRun): boolean {
  const c = curve(run, "train", "loss");
  if (!c) return false;
  const half = { steps: c.steps.subarray(c.steps.length >> 1), values: c.values.subarray(c.values.length >> 1), noise: c.noise };
  const p = lossProgress(half);
  return (p !== null && p.relative < MIN_IMPROVEMENT) || findPlateau(c) !== null;
}

/** TH-10: the gradient norm collapses (late median < 1e-3 × its first-5 % median) while the loss stalls, or is < 1e-7. */
function detectVanishingGradients(run: TrainingRun): Finding[] {
  const g = curve(run, "none", "grad_norm", "fine");
  if (!g || g.values.length < 20) return [];
  const n = g.values.length;
  const early = median(g.values, 0, Math.max(3, Math.ceil(0.05 * n)));
  const late = median(g.values, n - Math.max(3, Math.ceil(0.1 * n)), n);
  const ratio = early > 0 ? late / early : 1;
  const stalled = lossStalled(run);
  const collapsed = ratio < COLLAPSE_RATIO && stalled;
  const tiny = late < TINY_NORM;
  if (!collapsed && !tiny) return [];
  return [
    detectorFinding({
      id: "training.vanishing_gradients",
      title: "Vanishing gradients",
      description: `The gradient norm fell from ${fmt(early)} early in training to ${fmt(late)} at the end (${fmt(ratio)}×)${stalled ? " while the loss stopped improving" : ""}: updates have become too small to train the network.`,
      evidence: [
        {
          rule_id: "TH-10",
          artifact: metricArtifact(g.name),
          text: `Median ${g.name} ${fmt(early)} over the first 5 % of steps, ${fmt(late)} over the last 10 %; ratio ${fmt(ratio)} (threshold ${COLLAPSE_RATIO}), absolute floor ${TINY_NORM}.`,
          window: [g.steps[0]!, g.steps[n - 1]!],
          observed: round(ratio),
          threshold: COLLAPSE_RATIO,
          noise_estimate: round(g.noise),
          n_points: n,
          values: { early_median: round(early), late_median: round(late), loss_stalled: stalled },
        },
      ],
      severity: stalled ? "high" : "medium",
      confidence: scoreConfidence({ strength: collapsed ? COLLAPSE_RATIO / Math.max(ratio, 1e-12) : TINY_NORM / Math.max(late, 1e-15), threshold: 1, points: n, corroborations: stalled ? 1 : 0 }),
      recommendation: {
        action: "Use ReLU-family activations with He initialization, add normalization layers and residual connections, and check that the learning rate has not decayed to nothing.",
        rationale: "Gradients shrink multiplicatively through saturating or badly initialized layers; normalization, residual paths and proper init keep them at a trainable scale.",
        category: "model",
        effort: "medium",
      },
    }),
  ];
}

export const vanishingGradients: TrainingDetector = {
  info: {
    id: "training.vanishing_gradients",
    rule: "TH-10",
    title: "Vanishing gradients",
    threshold: "global grad norm: last-10 % median < 1e-3 × first-5 % median with a stalled loss (high), or < 1e-7 (medium; high with a stalled loss)",
    severities: ["high", "medium"],
    basis: "AutoTrainer vanishing ratio 1e-3; SageMaker VanishingGradient 1e-7; He init, BatchNorm [K06][K08][P-AutoTrainer]",
  },
  detect: detectVanishingGradients,
};
