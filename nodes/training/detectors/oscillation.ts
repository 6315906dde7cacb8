import type { Evidence, Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { binMeans, type Curve, curve } from "../curves.js";
import type { TrainingRun } from "../model.js";
import { fitLine, mean } from "../stats.js";
import { fmt, metricArtifact, pct, round, type TrainingDetector } from "./detector.js";

/** Detrended coefficient of variation above which a late loss oscillates (DeepFix high_cv). */
const MAX_CV = 0.2;
/** Late phase: the last 30 % of the run, seen as at most 20 points so mini-batch noise averages out. */
const LATE_SHARE = 0.3;
const LATE_POINTS = 20;
/** AutoTrainer: accuracy swings ≥ 0.03 in ≥ 20 % of late evaluations. */
const ACC_SWING = 0.03;
const SWING_SHARE = 0.2;

interface LossOscillation {
  curve: Curve;
  cv: number;
  from: number;
}

function lateLossOscillation(c: Curve): LossOscillation | null {
  const n = c.values.length;
  const from = Math.floor(n * (1 - LATE_SHARE));
  if (n - from < 6) return null;
  const late = binMeans(c.steps.subarray(from), c.values.subarray(from), Math.min(LATE_POINTS, n - from));
  const level = mean(late.values);
  const cv = level > 0 ? fitLine(late.steps, late.values).residualSd / level : 0;
  return cv > MAX_CV ? { curve: c, cv, from } : null;
}

/** Late validation-accuracy swings, only when the evaluation-set size is known (swings must exceed 3 SE of a difference). */
function accuracySwings(run: TrainingRun): Evidence | null {
  const c = curve(run, "val", "accuracy");
  const n = run.meta.valSamples;
  if (!c || !n || c.values.length < 10) return null;
  const from = Math.floor(c.values.length * (1 - LATE_SHARE));
  const p = mean(c.values, from);
  const se = Math.sqrt((p * (1 - p)) / n);
  const swing = Math.max(ACC_SWING, 3 * Math.SQRT2 * se);
  let big = 0;
  for (let i = from + 1; i < c.values.length; i++) if (Math.abs(c.values[i]! - c.values[i - 1]!) >= swing) big++;
  const share = big / (c.values.length - from - 1);
  if (share < SWING_SHARE) return null;
  return {
    rule_id: "TH-07",
    artifact: metricArtifact(c.name),
    text: `${c.name} swings by ≥ ${fmt(swing)} in ${pct(share)} of the last ${c.values.length - from} evaluations (3 SE of a difference on ${n} examples = ${fmt(3 * Math.SQRT2 * se)}).`,
    window: [c.steps[from]!, c.steps[c.steps.length - 1]!],
    observed: round(share),
    threshold: SWING_SHARE,
    noise_estimate: round(se),
    n_points: c.values.length - from,
  };
}

/** TH-07: late-training oscillation of the loss (detrended CV > 0.2) or of validation accuracy. */
function detectOscillation(run: TrainingRun): Finding[] {
  const losses = [curve(run, "train", "loss"), curve(run, "val", "loss")]
    .map((c) => c && lateLossOscillation(c))
    .filter((o): o is LossOscillation => !!o);
  const evidence: Evidence[] = losses.map((o) => ({
    rule_id: "TH-07",
    artifact: metricArtifact(o.curve.name),
    text: `Over the last 30 % of the run (from step ${o.curve.steps[o.from]}), ${o.curve.name} varies around its trend with a coefficient of variation of ${fmt(o.cv)} (threshold ${MAX_CV}).`,
    window: [o.curve.steps[o.from]!, o.curve.steps[o.curve.steps.length - 1]!],
    observed: round(o.cv),
    threshold: MAX_CV,
    noise_estimate: round(o.curve.noise),
    n_points: o.curve.values.length - o.from,
  }));
  const swings = accuracySwings(run);
  if (swings) evidence.push(swings);
  if (evidence.length === 0) return [];
  const worstCv = Math.max(0, ...losses.map((o) => o.cv));
  return [
    detectorFinding({
      id: "training.oscillation",
      title: "Late-training oscillation",
      description: `Late in training the ${evidence.map((e) => e.artifact.split(":")[1]).join(" and ")} keep swinging instead of settling: step-to-step variance is too high at the end, typically because the learning rate was not decayed or the batch is small.`,
      evidence,
      severity: "medium",
      confidence: scoreConfidence({ strength: worstCv > 0 ? worstCv : MAX_CV * 1.2, threshold: MAX_CV, corroborations: evidence.length - 1 }),
      recommendation: {
        action: "Decay the learning rate towards the end (cosine or step decay), use a larger batch or weight averaging (EMA/Polyak), and evaluate on more validation data.",
        rationale: "The tuning playbook attributes late-training variance to the step size; decaying it or averaging weights lets the model settle.",
        category: "training",
        effort: "low",
      },
    }),
  ];
}

export const oscillation: TrainingDetector = {
  info: {
    id: "training.oscillation",
    rule: "TH-07",
    title: "Late-training oscillation",
    threshold: "last 30 % of train/val loss (≤ 20 bins) detrended CV > 0.2; or val accuracy swings ≥ max(0.03, 3√2 SE) in ≥ 20 % of late evaluations (only with a known evaluation-set size)",
    severities: ["medium"],
    basis: "AutoTrainer oscillation rule; DeepFix high_cv 0.2; tuning playbook on late-training variance [K01]",
  },
  detect: detectOscillation,
};
