import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import type { CompareContext, CompareRun } from "../artifacts/compare-request.js";
import type { Citation } from "../knowledge/port.js";
import type { RunDigest } from "../nodes/experiment/digest.js";
import type { BaselineComparison } from "../nodes/experiment/detectors/regression.js";
import type { NoiseModel } from "../nodes/experiment/model.js";
import type { Objective } from "../nodes/experiment/objective.js";
import type { Finding, Recommendation } from "../domain/result.js";
import { mergeByKey } from "./state.js";

/** What the experiment node concludes across runs. */
export interface ExperimentResult {
  objective: Objective | null;
  findings: Finding[];
  recommendations: Recommendation[];
  citations: Citation[];
  summary: string;
  baselineComparison: BaselineComparison | null;
  noise: NoiseModel | null;
  /** Each run's standing: its score (best objective), final level, and why it counts as failed. */
  verdicts: Array<{ name: string; score: number | null; final: number | null; failure: string | null }>;
  /** Why no cross-run reasoning was possible (no objective), or what failed in it (the model's narration), or null. */
  error: string | null;
}

export const ExperimentState = new StateSchema({
  compare: z.custom<CompareContext>(),
  /** Run name → digest, one writer per run (keyed merge, sorted: completion order never shows). */
  runs: new ReducedValue(z.custom<Record<string, RunDigest>>().default(() => ({})), { reducer: mergeByKey<RunDigest> }),
  result: z.custom<ExperimentResult | null>().default(null),
});
export type ExperimentStateValue = typeof ExperimentState.State;
export type ExperimentStateUpdate = typeof ExperimentState.Update;

/** What the router sends each run's analysis: the run and the objective's series name, when the request named one. */
export interface RunInput {
  run: CompareRun;
  /** Normalized series name of the requested objective (kept by the reduction even outside val/test), or null. */
  wanted: string | null;
}
