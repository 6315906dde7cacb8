import type { CompareContext } from "../artifacts/compare-request.js";
import { EXPERIMENT_AGENT } from "../nodes/experiment/names.js";
import { assembleCompareResponse, type CompareResponse } from "./compare-response.js";
import type { ExperimentGraph } from "./build-experiment.js";
import type { ExperimentDeps } from "./experiment-context.js";
import type { ExperimentStateValue } from "./experiment-state.js";

export interface CompareOptions {
  /** Runs analysed at once (values below 2 are clamped: langgraphjs#2656). */
  runWorkers: number;
  callbacks?: unknown[];
}

/** Runs the experiment graph over a decoded comparison and assembles the response. */
export async function runComparison(graph: ExperimentGraph, compare: CompareContext, deps: ExperimentDeps, options: CompareOptions): Promise<CompareResponse> {
  const state = await graph.invoke(
    { compare },
    {
      context: deps as unknown as Record<string, unknown>,
      signal: deps.deadline.signal,
      maxConcurrency: Math.max(2, options.runWorkers),
      callbacks: (options.callbacks ?? []) as never,
    },
  );
  return respondToComparison(state, deps);
}

/** POST /v1/compare's response from the experiment graph's final state (or the same state a job's runs spread over replicas leave). */
export function respondToComparison(state: ExperimentStateValue, deps: ExperimentDeps): CompareResponse {
  const llm = deps.llm
    ? { llm: deps.llm.describe(state.compare.language) }
    : { llm: { mode: "deterministic", language: "en", note: "No language model is configured: findings come from deterministic detectors and texts are in English." } };
  return assembleCompareResponse(state, EXPERIMENT_AGENT, llm);
}
