import type { Evidence, Finding, Severity } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type Curve, curve, curveExtremes } from "../curves.js";
import type { TrainingRun } from "../model.js";
import { plateauScheduler, schedulerConfigured } from "../run-config.js";
import { fmt, LOGS_ARTIFACT, metricArtifact, pct, type TrainingDetector } from "./detector.js";

/** Playbook: warm-up ≤ 10 % of steps; a tail below 1e-3 × peak for > 20 % of steps is wasted. */
const MAX_WARMUP = 0.1;
const TAIL_FACTOR = 1e-3;
const MAX_TAIL = 0.2;
/** Three or more plateau reductions: the schedule keeps hitting plateaus. */
const MANY_REDUCTIONS = 3;
/** A drop to ≤ 80 % between consecutive points is a reduction (halving, ×0.1, …). */
const DROP = 0.8;

interface Issue {
  severity: Severity;
  evidence: Evidence;
}

/** Cyclic schedules return to near their peak after a dip: at least two peaks ≥ 90 % of the maximum. */
function isCyclic(lr: Curve, peak: number): boolean {
  let peaks = 0;
  let armed = true;
  for (let i = 0; i < lr.values.length; i++) {
    const v = lr.values[i]!;
    if (armed && v >= 0.9 * peak) {
      peaks++;
      armed = false;
    } else if (v < 0.6 * peak) armed = true;
  }
  return peaks >= 2;
}

function reductions(lr: Curve): number {
  let k = 0;
  for (let i = 1; i < lr.values.length; i++) if (lr.values[i]! < DROP * lr.values[i - 1]! && lr.values[i]! > 0) k++;
  return k;
}

function issuesOf(run: TrainingRun, lr: Curve): Issue[] {
  const out: Issue[] = [];
  const artifact = metricArtifact(lr.name);
  const n = lr.values.length;
  const [lo, p] = curveExtremes(lr);
  const peak = lr.values[p]!;
  const min = lr.values[lo]!;
  const span = Math.max(1, lr.steps[n - 1]! - lr.steps[0]!);
  const scheduler = schedulerConfigured(run);
  const plateau = plateauScheduler(run);
  if (n >= 5 && scheduler && !plateau && peak > 0 && min / peak > 0.999) {
    out.push({ severity: "low", evidence: { rule_id: "TH-20", artifact, text: `The learning rate stays at ${fmt(peak)} for all ${n} logged points although a scheduler is configured (${scheduler}).`, observed: peak, threshold: "changes over the run" } });
  }
  if (n < 5 || peak <= 0 || isCyclic(lr, peak)) return out;
  const warmup = (lr.steps[p]! - lr.steps[0]!) / span;
  if (lr.values[0]! < 0.5 * peak && warmup > MAX_WARMUP && p < n - 1) {
    out.push({ severity: "low", evidence: { rule_id: "TH-20", artifact, text: `Warm-up rises to the peak ${fmt(peak)} over ${pct(warmup)} of the run (up to step ${lr.steps[p]}); the playbook keeps it ≤ ${pct(MAX_WARMUP)}.`, window: [lr.steps[0]!, lr.steps[p]!], observed: warmup, threshold: MAX_WARMUP } });
  }
  let tailSteps = 0;
  for (let i = 1; i < n; i++) if (lr.values[i]! < TAIL_FACTOR * peak) tailSteps += lr.steps[i]! - lr.steps[i - 1]!;
  if (tailSteps / span > MAX_TAIL) {
    out.push({ severity: "low", evidence: { rule_id: "TH-20", artifact, text: `The learning rate is below ${TAIL_FACTOR} × its peak for ${pct(tailSteps / span)} of the run: those steps barely change the weights.`, observed: tailSteps / span, threshold: MAX_TAIL } });
  }
  const drops = reductions(lr);
  const logged = run.logs.counts.lr_reduced ?? 0;
  if (plateau && Math.max(drops, logged) >= MANY_REDUCTIONS) {
    out.push({
      severity: "medium",
      evidence: { rule_id: "TH-20", artifact: drops >= logged ? artifact : LOGS_ARTIFACT, text: `The plateau scheduler reduced the learning rate ${Math.max(drops, logged)} times (from ${fmt(peak)} to ${fmt(lr.values[n - 1]!)}): validation kept stalling and each cut bought little.`, observed: Math.max(drops, logged), threshold: MANY_REDUCTIONS },
    });
  }
  return out;
}

/** TH-20: a configured schedule that never changes the lr, long warm-up, a wasted tail, repeated plateau cuts. */
function detectLrSchedule(run: TrainingRun): Finding[] {
  const lr = curve(run, "none", "lr", "fine");
  if (!lr) return [];
  const issues = issuesOf(run, lr);
  if (issues.length === 0) return [];
  const severity: Severity = issues.some((i) => i.severity === "medium") ? "medium" : "low";
  return [
    detectorFinding({
      id: "training.lr_schedule",
      title: "Learning-rate schedule issues",
      description: `The learning-rate schedule does not fit the run: ${issues.map((i) => i.evidence.text.replace(/\.$/, "").replace(/^The /, "the ")).join("; ")}.`,
      evidence: issues.map((i) => i.evidence),
      severity,
      confidence: scoreConfidence({ strength: issues.length, threshold: 1, corroborations: issues.length - 1 }),
      recommendation: {
        action: "Match the schedule to the budget: warm up for ≤ 10 % of steps, decay (cosine or linear) to a small but useful floor at the planned end, and if plateau cuts keep firing, fix the underlying plateau or overfitting instead.",
        rationale: "The tuning playbook ties the schedule to the step budget; repeated plateau reductions treat a symptom (stalled validation) rather than its cause.",
        category: "training",
        effort: "low",
      },
    }),
  ];
}

export const lrSchedule: TrainingDetector = {
  info: {
    id: "training.lr_schedule",
    rule: "TH-20",
    title: "Learning-rate schedule issues",
    threshold: "(a) constant lr with a scheduler configured; (b) warm-up > 10 % of steps; (c) lr < 1e-3 × peak for > 20 % of steps; (d) ≥ 3 reductions by a plateau scheduler (medium); cyclic schedules exempt from (b)–(d)",
    severities: ["medium", "low"],
    basis: "Tuning playbook on warm-up and schedules; SGDR; Goyal et al. warm-up [K01][K14][K15][K04]",
  },
  detect: detectLrSchedule,
};
