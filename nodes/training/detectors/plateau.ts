import type { Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type Curve, curve, pointLabel, valueAt } from "../curves.js";
import { findChanceLevel } from "../chance.js";
import type { TrainingRun } from "../model.js";
import { argExtreme, fitLine, mean, movingAverage, smoothingWindow } from "../stats.js";
import { fmt, metricArtifact, pct, round, type TrainingDetector } from "./detector.js";

/** ReduceLROnPlateau's default relative threshold and patience. */
const REL_THRESHOLD = 1e-4;
const MIN_EVALUATIONS = 10;

export interface Plateau {
  curve: Curve;
  /** Index where the loss reached its final level (within noise) and the plateau's length in points. */
  lastImprovement: number;
  length: number;
  level: number;
  delta: number;
}

/**
 * Where the smoothed loss stopped improving: the first point within max(1e-4 relative, 2σ̂/√w) of its overall
 * minimum. A plateau when that is ≥ max(10, 25 % of the run) points before the end, with no significant downward
 * trend since (t > −2), the loss neither rising again (divergence) nor already fitted (≤ 5 % of its start), and
 * it did improve before (otherwise TH-04).
 */
export function findPlateau(c: Curve): Plateau | null {
  const n = c.values.length;
  if (n < 12) return null;
  const w = smoothingWindow(n);
  const s = movingAverage(c.values, w);
  const level = s[argExtreme(s, "min")]!;
  const delta = Math.max(REL_THRESHOLD * Math.abs(level), (2 * c.noise) / Math.sqrt(w));
  const lastImprovement = s.findIndex((v) => v <= level + delta);
  const length = n - 1 - lastImprovement;
  const start = mean(c.values, 0, w);
  const end = mean(c.values, n - w, n);
  if (start - level <= delta || length < Math.max(MIN_EVALUATIONS, 0.25 * n)) return null;
  if (end - level > 3 * c.noise || end <= 0.05 * start) return null;
  if (fitLine(c.steps, c.values, lastImprovement, n).t < -2) return null;
  return { curve: c, lastImprovement, length, level, delta };
}

/** The logged learning rate was already at or below half its peak at `step`: flat loss there is convergence. */
function lrDecayedBy(run: TrainingRun, step: number): boolean {
  const lr = curve(run, "none", "lr", "fine");
  return !!lr && valueAt(lr, step) <= 0.5 * lr.values[argExtreme(lr.values, "max")]!;
}

/** TH-06: the training loss stopped improving long before the end of the run; a flat loss at chance level is
 * training.chance_level's (a failed run, not one to decay the learning rate on). */
function detectPlateau(run: TrainingRun): Finding[] {
  if (findChanceLevel(run)) return [];
  const c = curve(run, "train", "loss") ?? curve(run, "val", "loss");
  const p = c && findPlateau(c);
  if (!c || !p) return [];
  const n = c.values.length;
  const early = p.lastImprovement < 0.5 * n;
  const from = c.steps[p.lastImprovement]!;
  if (!early && lrDecayedBy(run, c.steps[n - 1]!)) return [];
  const decayed = lrDecayedBy(run, from);
  const to = c.steps[n - 1]!;
  const share = p.length / n;
  return [
    detectorFinding({
      id: "training.plateau",
      title: early ? "Loss plateaued early" : "Loss plateaued",
      description: `${c.name} has not improved beyond noise since ${pointLabel(c, p.lastImprovement)} (${pct(share)} of the run, ${p.length} points), staying near ${fmt(p.level)}: optimization has stalled, and decaying the learning rate or changing the schedule is the usual next step.`,
      evidence: [
        {
          rule_id: "TH-06",
          artifact: metricArtifact(c.name),
          text: `The smoothed ${c.name} reached ${fmt(p.level)} (within ${fmt(p.delta)}) at ${pointLabel(c, p.lastImprovement)} and improved no further over the following ${p.length} points.`,
          window: [from, to],
          observed: p.length,
          threshold: `≥ max(${MIN_EVALUATIONS}, 25 % of the run) points within max(1e-4 relative, 2σ̂/√w) of the final minimum`,
          noise_estimate: round(c.noise),
          n_points: n,
          values: { plateau_level: round(p.level), plateau_share: round(share) },
        },
      ],
      severity: early && !decayed ? "medium" : "low",
      confidence: scoreConfidence({ strength: share, threshold: 0.25, points: n, benignPossible: !early || decayed }),
      recommendation: {
        action: "Decay the learning rate (×0.1) when the loss stalls, or switch to a schedule such as cosine decay; if the loss never fell, see the no-learning checks.",
        rationale: "ReduceLROnPlateau and cosine schedules exist because a loss that has stopped falling at a given learning rate usually resumes at a smaller one.",
        category: "training",
        effort: "low",
      },
    }),
  ];
}

export const plateau: TrainingDetector = {
  info: {
    id: "training.plateau",
    rule: "TH-06",
    title: "Loss plateau",
    threshold: "smoothed train loss within max(1e-4 relative, 2σ̂/√w) of its final minimum for the last ≥ max(10, 25 % of the run) points with no significant downward trend (t > −2), not rising again, not already ≤ 5 % of its start; medium when the plateau starts in the first half, low when the logged lr had already halved when it began; late plateaus ending with a halved lr are convergence and not reported",
    severities: ["medium", "low"],
    basis: "PyTorch ReduceLROnPlateau defaults (threshold 1e-4 rel, patience 10) [K05][K14]",
  },
  detect: detectPlateau,
};
