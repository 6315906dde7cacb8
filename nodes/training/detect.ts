import type { Finding } from "../../domain/result.js";
import { isBoostingRun, NETWORK_ONLY_DETECTORS } from "./boosting-run.js";
import { conclusiveStep, withDetectedAt } from "./detected-at.js";
import { TRAINING_DETECTORS } from "./detectors/index.js";
import type { TrainingDetector } from "./detectors/detector.js";
import type { TrainingRun } from "./model.js";
import { runExtent } from "./curves.js";
import { PARTIAL_RUN, progressLabel, stillRunning } from "./partial-run.js";

const memo = new WeakMap<TrainingRun, Finding[]>();

/**
 * Runs every training detector over a parsed run (pure; memoized per run so the digest can reuse the result).
 * On a run still training, detectors of the finished run hold back and the others say "so far"
 * (nodes/training/partial-run.ts); every finding's evidence carries the step at which it became conclusive.
 */
export function detectTrainingFindings(run: TrainingRun): Finding[] {
  const hit = memo.get(run);
  if (hit) return hit;
  const running = stillRunning(run);
  // A tree ensemble's rounds are judged by the boosting detectors; the network detectors' advice does not fit it.
  const boosting = isBoostingRun(run);
  const findings = TRAINING_DETECTORS.filter((d) => !(boosting && NETWORK_ONLY_DETECTORS.has(d.info.id))).flatMap((d) => judged(d, run, running));
  memo.set(run, findings);
  return findings;
}

function judged(d: TrainingDetector, run: TrainingRun, running: boolean): Finding[] {
  const behaviour = PARTIAL_RUN[d.info.id];
  let found = d.detect(run);
  if (running && behaviour?.mode === "held_back") found = found.filter((f) => behaviour.unless?.(f) ?? false);
  return found.map((f) => {
    // A judgement of the finished run becomes conclusive at its end; the others where their prefix first shows it.
    const step = behaviour?.mode === "held_back" && !running ? runExtent(run).last : conclusiveStep(d, run, f.id);
    const said = running && behaviour?.mode === "so_far" ? { ...f, description: `${f.description} So far: the run is still going, at ${progressLabel(run)}.` } : f;
    return withDetectedAt(said, step);
  });
}
