import type { Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { curve } from "../curves.js";
import type { TrainingRun } from "../model.js";
import { clipThreshold } from "../run-config.js";
import { fmt, metricArtifact, pct, round, type TrainingDetector } from "./detector.js";

/** More than half of the steps clipped is "extremely aggressive" (tuning playbook); most of them, medium. */
const AGGRESSIVE = 0.5;
const ALWAYS = 0.8;

/** TH-12: more than 50 % of the logged gradient norms are at or above the configured clipping threshold. */
function detectOverClipping(run: TrainingRun): Finding[] {
  const clip = clipThreshold(run);
  const g = curve(run, "none", "grad_norm", "fine");
  if (clip === null || !g || g.values.length < 20) return [];
  let clipped = 0;
  const limit = clip * (1 - 1e-6);
  for (let i = 0; i < g.values.length; i++) if (g.values[i]! >= limit) clipped++;
  const share = clipped / g.values.length;
  if (share <= AGGRESSIVE) return [];
  return [
    detectorFinding({
      id: "training.over_clipping",
      title: "Gradient clipping is active on most steps",
      description: `${pct(share)} of the logged gradient norms are at or above the clipping threshold ${fmt(clip)}: clipping this often acts as a hidden learning-rate cut and distorts the update direction less predictably than a smaller learning rate would.`,
      evidence: [
        {
          rule_id: "TH-12",
          artifact: metricArtifact(g.name),
          text: `${clipped} of ${g.values.length} gradient norms ≥ max_grad_norm ${fmt(clip)} (${pct(share)}; threshold ${pct(AGGRESSIVE)}).`,
          window: [g.steps[0]!, g.steps[g.steps.length - 1]!],
          observed: round(share),
          threshold: AGGRESSIVE,
          n_points: g.values.length,
          values: { clip_threshold: clip },
        },
      ],
      severity: share > ALWAYS ? "medium" : "low",
      confidence: scoreConfidence({ strength: share, threshold: AGGRESSIVE, points: g.values.length }),
      recommendation: {
        action: "Lower the learning rate instead, or raise the clipping threshold to about the 90th percentile of the unclipped gradient norms.",
        rationale: "Clipping should catch rare outliers; when it fires on most steps it is an implicit, uneven learning-rate reduction (tuning playbook).",
        category: "training",
        effort: "low",
      },
    }),
  ];
}

export const overClipping: TrainingDetector = {
  info: {
    id: "training.over_clipping",
    rule: "TH-12",
    title: "Over-clipping",
    threshold: "> 50 % of logged grad norms ≥ the configured max_grad_norm/gradient_clip_val (low); > 80 % (medium)",
    severities: ["medium", "low"],
    basis: "Tuning playbook: clipping > 50 % of steps is extremely aggressive [K01]",
  },
  detect: detectOverClipping,
};
