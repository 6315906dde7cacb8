import type { Finding } from "../../graph/result.js";
import { TRAINING_DETECTORS } from "./detectors/index.js";
import type { TrainingRun } from "./model.js";

const memo = new WeakMap<TrainingRun, Finding[]>();

/** Runs every training detector over a parsed run (pure; memoized per run so the digest can reuse the result). */
export function detectTrainingFindings(run: TrainingRun): Finding[] {
  const hit = memo.get(run);
  if (hit) return hit;
  const findings = TRAINING_DETECTORS.flatMap((d) => d.detect(run));
  memo.set(run, findings);
  return findings;
}
