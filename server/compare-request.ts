import { setMaxListeners } from "node:events";
import { decodeCompareRequest } from "../artifacts/compare-request.js";
import { expandExperimentRuns } from "../artifacts/mlflow/experiment-runs.js";
import type { Logger } from "../config/logger.js";
import type { ExperimentGraph } from "../graph/build-experiment.js";
import type { CompareResponse } from "../graph/compare-response.js";
import type { Deadline } from "../graph/deadline.js";
import { runComparison } from "../graph/run-experiment.js";
import { analysisDeps } from "./analyze-request.js";
import type { ServiceRuntime } from "./runtime.js";

/** Abort listeners one run's analysis may hold on the request's signal at once (graph, agents, model calls). */
const LISTENERS_PER_RUN = 16;

export interface CompareOptions {
  requestId: string;
  logger: Logger;
  /** The request's one clock: every run's analysis, pull and agent budget is a scope of it. */
  deadline: Deadline;
  /** LangChain callbacks for the experiment graph's run (a job counts finished runs with one). */
  callbacks?: unknown[];
}

/**
 * Decodes a parsed POST /v1/compare body and runs the experiment graph over it. Runs are analysed
 * SERVICE_ANALYZER_WORKERS at a time, each with the deps an analysis of its own would have.
 */
export async function compareRequest(runtime: ServiceRuntime, graph: ExperimentGraph, body: unknown, options: CompareOptions): Promise<CompareResponse> {
  const decoded = decodeCompareRequest(body, options.requestId, runtime.settings.SERVICE_MAX_COMPARE_RUNS);
  const compare = await expandExperimentRuns(decoded, { settings: runtime.settings, deadline: options.deadline });
  const workers = runtime.settings.SERVICE_ANALYZER_WORKERS;
  options.logger.info("comparison started", { runs: compare.runs.length, baseline: compare.baseline, objective: compare.objective?.metric ?? null });
  const started = performance.now();
  // Every run in flight listens to the request's signal through its agents' scopes and its graph: many listeners by design.
  setMaxListeners(LISTENERS_PER_RUN * Math.max(2, workers), options.deadline.signal);
  const deps = { ...analysisDeps(runtime, options.logger, options.deadline), analysisGraph: runtime.graph, workers };
  const response = await runComparison(graph, compare, deps, { runWorkers: workers, callbacks: options.callbacks });
  options.logger.info("comparison finished", { ms: Math.round(performance.now() - started), runs: response.runs.length, findings: response.findings.length });
  return response;
}
