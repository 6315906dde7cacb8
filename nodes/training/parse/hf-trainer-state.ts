import { axisValue } from "./arrays.js";
import { readMetricValue } from "./number.js";
import type { SeriesBuilder } from "./series-builder.js";

/** Log-history keys that are bookkeeping or throughput, not metrics of the model. */
export const TRAINER_BOOKKEEPING = /^(?:step|epoch|total_flos|num_input_tokens_seen|.*_runtime|.*_per_second)$/;

/** What trainer_state.json says about the run besides its log history. */
export interface TrainerStateMeta {
  bestCheckpoint: string | null;
  bestStep: number | null;
  maxSteps: number | null;
  /** Evaluation set size: eval_samples_per_second × eval_runtime (median over evaluations). */
  valSamples: number | null;
}

/**
 * Reads a Hugging Face `trainer_state.json` (`log_history` of train entries {loss, grad_norm, learning_rate},
 * eval entries {eval_loss, eval_<metric>…} and the final summary {train_runtime, train_loss…}, which is not a
 * metric point). grad_norm NaN/Infinity after an fp16 overflow is kept as logged.
 */
export function readTrainerState(state: Record<string, unknown>, out: SeriesBuilder): TrainerStateMeta {
  const history = state.log_history;
  if (!Array.isArray(history)) throw new Error("metrics.log_history: expected the list of log entries of trainer_state.json");
  const evalSizes: number[] = [];
  history.forEach((e, i) => {
    if (e === null || typeof e !== "object") return;
    const entry = e as Record<string, unknown>;
    if ("train_runtime" in entry) return;
    const step = axisValue(entry.step, i);
    const epoch = axisValue(entry.epoch, Number.NaN);
    for (const [key, v] of Object.entries(entry)) {
      if (TRAINER_BOOKKEEPING.test(key)) continue;
      const value = readMetricValue(v);
      if (typeof value === "number") out.add(key, step, value, epoch);
    }
    const size = Number(entry.eval_samples_per_second) * Number(entry.eval_runtime);
    if (Number.isFinite(size) && size > 0) evalSizes.push(size);
  });
  evalSizes.sort((a, b) => a - b);
  const size = evalSizes[evalSizes.length >> 1];
  return {
    bestCheckpoint: typeof state.best_model_checkpoint === "string" ? state.best_model_checkpoint : null,
    bestStep: finiteOrNull(state.best_global_step),
    maxSteps: finiteOrNull(state.max_steps) ?? finiteOrNull(state.global_step),
    valSamples: size === undefined ? null : Math.round(size),
  };
}

function finiteOrNull(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : null;
}
