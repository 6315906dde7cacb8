import type { Finding } from "../../domain/result.js";
import type { TrainingDetector } from "./detectors/detector.js";
import type { MetricSeries, TrainingRun } from "./model.js";
import { countUpTo, runExtent } from "./curves.js";
import { PrefixSeries } from "./prefix-series.js";

/** Bisection steps at most: the step found is within 1/2¹⁶ of the run's span of the first conclusive one. */
const MAX_BISECTIONS = 16;

/**
 * The prefixes of each run taken so far, by the last logged step they keep. Every finding's bisection starts from
 * the same bounds, so the detectors of one run probe many of the same prefixes; one object per prefix lets them
 * share what the curve caches (curves.ts) computed on its series (σ̂, bins, log values) instead of each again.
 */
const prefixes = new WeakMap<TrainingRun, Map<number, TrainingRun>>();

/**
 * The run as it stood when `step` was logged, still going: every series cut after it (views, no copies, made
 * when read: prefix-series.ts). Log lines carry no step, so the prefix has none: a finding that rests on logs
 * alone gets no conclusive step.
 */
export function runUpTo(run: TrainingRun, step: number): TrainingRun {
  const counts: Array<[string, MetricSeries, number]> = [];
  let kept = Number.NEGATIVE_INFINITY;
  for (const [name, s] of run.series) {
    const n = countUpTo(s.steps, step);
    if (n === 0) continue;
    counts.push([name, s, n]);
    kept = Math.max(kept, s.steps[n - 1]!);
  }
  let byStep = prefixes.get(run);
  if (!byStep) prefixes.set(run, (byStep = new Map()));
  const hit = byStep.get(kept);
  if (hit) return hit;
  const prefix = { ...run, series: new PrefixSeries(counts), logs: { lines: 0, counts: {}, events: [] }, meta: { ...run.meta, progress: { ...run.meta.progress, running: true } } };
  byStep.set(kept, prefix);
  return prefix;
}

/**
 * The step at which a detector's finding became conclusive: the earliest logged step whose prefix of the run
 * already yields a finding with this id, found by bisection on the step axis (a detector need not be monotone
 * in the prefix; bisection finds a step where it turns on, and the one found for a finding that fires, stops
 * and fires again is the later turn-on, never a step before the evidence). Null when the metrics alone do not
 * yield it (a log line).
 */
export function conclusiveStep(detector: TrainingDetector, run: TrainingRun, id: string): number | null {
  const fires = (r: TrainingRun) => detector.detect(r).some((f) => f.id === id);
  const { first, last } = runExtent(run);
  const whole = runUpTo(run, last);
  if (whole.series.size === 0 || !fires(whole)) return null;
  let lo = first - 1;
  let hi = last;
  for (let i = 0; i < MAX_BISECTIONS && hi - lo > 1e-9 * Math.max(1, Math.abs(last)); i++) {
    const mid = lo + (hi - lo) / 2;
    const prefix = runUpTo(run, mid);
    if (prefix.series.size > 0 && fires(prefix)) hi = mid;
    else lo = mid;
    // One logged step left between the two: it is the answer.
    if (firstStepAfter(run, lo) >= lastStepUpTo(run, hi)) break;
  }
  return lastStepUpTo(run, hi);
}

/** The last logged step at or before `step` over every series. */
function lastStepUpTo(run: TrainingRun, step: number): number {
  let out = Number.NEGATIVE_INFINITY;
  for (const s of run.series.values()) {
    const n = countUpTo(s.steps, step);
    if (n > 0) out = Math.max(out, s.steps[n - 1]!);
  }
  return out;
}

/** The first logged step after `step` over every series. */
function firstStepAfter(run: TrainingRun, step: number): number {
  let out = Number.POSITIVE_INFINITY;
  for (const s of run.series.values()) {
    const n = countUpTo(s.steps, step);
    if (n < s.steps.length) out = Math.min(out, s.steps[n]!);
  }
  return out;
}

/** The finding with `detected_at_step` on every piece of its evidence. */
export function withDetectedAt(f: Finding, step: number | null): Finding {
  return { ...f, evidence: f.evidence.map((e) => ({ ...e, detected_at_step: step })) };
}
