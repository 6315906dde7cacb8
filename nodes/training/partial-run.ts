import type { Finding } from "../../domain/result.js";
import type { RunProgress, TrainingRun } from "./model.js";
import { runExtent } from "./curves.js";

/**
 * What a detector does on a run still training (docs/detectors.md, "Runs still training"):
 * - `fires`: its evidence is already certain (a NaN stays a NaN, a divergence has happened): reported at once;
 * - `so_far`: it describes the curve up to now, which stays true of that stretch: reported, saying "so far";
 * - `held_back`: it judges the finished run (where it ended, whether it converged, how long it ran): not reported
 *   until the run ends or reaches its expected length. `unless` keeps the findings that are certain already.
 */
export interface PartialRunBehaviour {
  mode: "fires" | "so_far" | "held_back";
  why: string;
  unless?: (f: Finding) => boolean;
}

const fires = (why: string): PartialRunBehaviour => ({ mode: "fires", why });
const soFar = (why: string): PartialRunBehaviour => ({ mode: "so_far", why });
const heldBack = (why: string, unless?: (f: Finding) => boolean): PartialRunBehaviour => ({ mode: "held_back", why, ...(unless ? { unless } : {}) });

/** Per training detector id; the catalog test checks that every detector has an entry. */
export const PARTIAL_RUN: Readonly<Record<string, PartialRunBehaviour>> = {
  "training.nonfinite_loss": fires("a NaN/Inf or exploded loss is final for the run"),
  "training.divergence": fires("the loss already climbed back well above its minimum and is not falling back"),
  "training.loss_spikes": fires("a spike is unrecovered only when not back within 10 % of the points so far (5 % on a finished run) and that window has passed"),
  "training.no_learning": heldBack("judges the first window against the last one of the whole run; a slow start is not a failure yet"),
  "training.chance_level": heldBack("a run at chance may still leave it; a run that learned and fell back to chance is reported at once", (f) => f.evidence.every((e) => e.values?.never_left === false)),
  "training.init_loss_sanity": fires("the first loss is known from the first logged step"),
  "training.plateau": heldBack("a flat stretch may still be followed by a drop (a schedule's decay, a warm restart)"),
  "training.oscillation": soFar("describes the last 30 % of the curve logged so far"),
  "training.lr_too_high": fires("rests on a non-finite loss, unrecovered spikes, an early divergence or the peak learning rate, all already logged"),
  "training.lr_too_low": heldBack("a straight, slow descent may be the first part of a longer schedule"),
  "training.vanishing_gradients": soFar("compares the latest gradient norms with the first ones"),
  "training.exploding_gradients": fires("a non-finite or exploded gradient norm is final"),
  "training.over_clipping": soFar("the share of clipped steps so far"),
  "training.overfitting": soFar("validation loss has risen since its minimum; it may still fall again"),
  "training.generalization_gap": heldBack("compares final values; mid-run the gap widens and closes again (a healthy real run showed 32 % at 70 % of its length and none at the end)"),
  "training.boosting_overfitting": soFar("the validation loss has risen with the rounds so far; more rounds only add trees"),
  "training.boosting_no_early_stopping": heldBack("the rounds after the best one are only known once boosting ends"),
  "training.early_stop_opportunity": heldBack("the wasted share is only known once the run ends"),
  "training.still_improving": heldBack("a run still training is expected to be improving at its latest evaluation"),
  "training.underfitting": heldBack("judges the final fit of the training data"),
  "training.metric_frozen": soFar("the metric has not moved for the evaluations logged so far"),
  "training.train_val_inversion": soFar("the share of evaluations so far"),
  "training.suspicious_perfection": fires("near-perfect validation scores early in the run are already logged"),
  "training.lr_schedule": heldBack("a schedule may not have reached its first decay yet"),
  "training.amp_overflow": fires("an fp16 overflow already happened"),
  "training.eval_coverage": heldBack("the first evaluation may still come"),
  "training.truncated_log": heldBack("a log being written ends mid-record until its writer flushes the rest"),
  "training.cuda_oom": fires("the log line is there"),
  "training.dataloader_errors": fires("the log line is there"),
  "training.dataloader_bottleneck": fires("the log line is there"),
  "training.nonfinite_warnings": fires("the log line is there"),
};

/** A run reported as running that already reached its expected length is judged as finished. */
export function stillRunning(run: TrainingRun): boolean {
  const p: RunProgress = run.meta.progress;
  if (!p.running) return false;
  const { last } = runExtent(run);
  if (p.expectedTotalSteps !== null && last >= p.expectedTotalSteps) return false;
  // Hugging Face logs fractional epochs that reach num_train_epochs at the end; 0-based frameworks never log
  // max_epochs itself, so for them the run stays "running" until its status says otherwise (held back longer, never early).
  if (p.maxEpochs !== null && lastEpoch(run) >= p.maxEpochs) return false;
  return true;
}

/** Highest epoch logged, −∞ when none. */
function lastEpoch(run: TrainingRun): number {
  let e = Number.NEGATIVE_INFINITY;
  for (const s of run.series.values()) {
    if (!s.epochs) continue;
    for (let i = s.epochs.length - 1; i >= 0; i--) {
      if (Number.isFinite(s.epochs[i]!)) {
        e = Math.max(e, s.epochs[i]!);
        break;
      }
    }
  }
  return e;
}

/** How far the run is, for "so far" findings: "step 1200 of 5000 (24 %)" or "step 1200". */
export function progressLabel(run: TrainingRun): string {
  const { last } = runExtent(run);
  const total = run.meta.progress.expectedTotalSteps;
  return total ? `step ${last} of ${total} (${Math.round((100 * last) / total)} %)` : `step ${last}`;
}
