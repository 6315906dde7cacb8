import type { Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type Curve, curve, pointLabel } from "../curves.js";
import { findChanceLevel } from "../chance.js";
import type { TrainingRun } from "../model.js";
import { bestCheckpointKept } from "../run-config.js";
import { argExtreme, fitLine, movingAverage, smoothingWindow } from "../stats.js";
import { fmt, metricArtifact, pct, round, type TrainingDetector } from "./detector.js";

/** Where a validation curve saturated: the first point whose smoothed value is within 1.5 SE of the best. */
export function saturationIndex(c: Curve, goal: "min" | "max"): number {
  const w = smoothingWindow(c.values.length);
  const s = movingAverage(c.values, w);
  const best = s[argExtreme(s, goal)]!;
  const tolerance = (1.5 * c.noise) / Math.sqrt(w);
  const sign = goal === "min" ? 1 : -1;
  return s.findIndex((v) => sign * (v - best) <= tolerance);
}

/**
 * TH-15: validation saturated long before the end: ≥ max(3, 20 % of the run) evaluations after it. Not for a run
 * at chance level: stopping it earlier would not have saved anything worth keeping (training.chance_level).
 */
function detectEarlyStopOpportunity(run: TrainingRun): Finding[] {
  if (findChanceLevel(run)) return [];
  const loss = curve(run, "val", "loss");
  const acc = loss ? undefined : curve(run, "val", "accuracy");
  const c = loss ?? acc;
  if (!c || c.values.length < 6) return [];
  const n = c.values.length;
  const sat = saturationIndex(c, loss ? "min" : "max");
  const after = n - 1 - sat;
  if (after < Math.max(3, 0.2 * n)) return [];
  const trend = fitLine(c.steps, c.values, sat, n).t;
  if (loss ? trend < -3 : trend > 3) return [];
  const first = c.steps[0]!;
  const last = c.steps[n - 1]!;
  const satStep = c.steps[sat]!;
  const wasted = last > first ? (last - satStep) / (last - first) : after / n;
  const kept = bestCheckpointKept(run) === true;
  return [
    detectorFinding({
      id: "training.early_stop_opportunity",
      title: "Training continued long after validation saturated",
      description: `${c.name} was already within noise of its best at ${pointLabel(c, sat)}; the remaining ${after} evaluations (${pct(wasted)} of the run) did not improve it${kept ? ", though the best checkpoint was kept" : ""}. That compute could be saved with early stopping or a shorter schedule.`,
      evidence: [
        {
          rule_id: "TH-15",
          artifact: metricArtifact(c.name),
          text: `${c.name} within 1.5 standard errors of its best from ${pointLabel(c, sat)}; ${after} of ${n} evaluations after it (threshold max(3, 20 %)).`,
          window: [satStep, last],
          observed: after,
          threshold: Math.max(3, Math.ceil(0.2 * n)),
          noise_estimate: round(c.noise),
          n_points: n,
          values: { saturation_step: satStep, wasted_share: round(wasted), best_checkpoint_kept: kept, best_value: round(c.values[sat]!) },
        },
      ],
      severity: kept ? "info" : "low",
      confidence: scoreConfidence({ strength: after / n, threshold: 0.2, points: n }),
      recommendation: {
        action: `Enable early stopping on ${c.name} (patience of a few evaluations) and keep the best checkpoint, or shorten the schedule by about ${pct(wasted)}.`,
        rationale: "The tuning playbook notes runs often saturate long before their final step; stopping there saves compute at no cost in quality.",
        category: "training",
        effort: "low",
      },
    }),
  ];
}

export const earlyStopOpportunity: TrainingDetector = {
  info: {
    id: "training.early_stop_opportunity",
    rule: "TH-15",
    title: "Early-stopping opportunity",
    threshold: "≥ max(3, 20 % of evaluations) after the smoothed val loss (else val accuracy) first came within 1.5 SE of its best, with no strong evidence of improvement since (trend t > −3); reports the wasted share; info when the best checkpoint is kept",
    severities: ["low", "info"],
    basis: "Lightning EarlyStopping patience 3; tuning playbook on saturation; Prechelt [K01][K10]",
  },
  detect: detectEarlyStopOpportunity,
};
