import { isRecord } from "../../../artifacts/json-values.js";
import type { RunProgress } from "../model.js";
import { paramNumber } from "../params.js";

/** `metadata.status` values: "running" is a run still training; the others (MLflow's among them) are ended. */
export const RUN_STATUSES = ["running", "finished", "failed", "killed", "scheduled"] as const;

const positive = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : null);

/**
 * Whether the run is still going and how long it is meant to be: `metadata.status` (case-insensitive, as MLflow's
 * RUNNING), `metadata.expected_total_steps` / `max_epochs`, else the Trainer's `max_steps` and the params' epochs.
 * The schema has already rejected malformed values.
 */
export function readProgress(metadata: unknown, maxSteps: number | null, params: Record<string, string>): RunProgress {
  const m = isRecord(metadata) ? metadata : {};
  return {
    running: typeof m.status === "string" && m.status.toLowerCase() === "running",
    expectedTotalSteps: positive(m.expected_total_steps) ?? maxSteps,
    maxEpochs: positive(m.max_epochs) ?? paramNumber(params, "max_epochs", "num_train_epochs", "epochs"),
  };
}
