import type { AnalysisContext } from "../artifacts/context.js";
import { RequestDecodeError, decodeAnalysisRequest } from "../artifacts/request.js";
import type { Logger } from "../config/logger.js";
import type { AnalysisDeps } from "../graph/context.js";
import { createLimiter } from "../graph/limiter.js";
import type { AnalysisResponse } from "../graph/response.js";
import { runAnalysis } from "../graph/run.js";
import { collectDebugOutputs } from "./debug-outputs.js";
import { progressEvent, type RunEventSink, spanEvents } from "./run-events.js";
import type { ServiceRuntime } from "./runtime.js";
import { SpanCollector } from "./trace.js";

export interface AnalyzeOptions {
  requestId: string;
  logger: Logger;
  signal: AbortSignal;
  callbacks?: unknown[];
  /** Receives the run's events as they happen (node spans, progress): the SSE stream. */
  onEvent?: RunEventSink;
  /** Adds the debug outputs (trace, curves) whatever the request says: the HTML report shows them. */
  debugOutputs?: boolean;
}

/** A request must name something to analyze: inline artifacts or a tracking-server reference. */
function requireSomethingToAnalyze(context: AnalysisContext): void {
  if (context.artifacts.length > 0 || context.mlflow) return;
  throw new RequestDecodeError(
    "(body): nothing to analyze: give at least one of dataset_artifacts, checks_artifacts, training_artifacts, model_checkpoint_artifacts, or an mlflow reference",
  );
}

/** The deps of one analysis over the runtime (also what graph/langgraph-entry.ts binds for the LangGraph CLI). */
export function analysisDeps(runtime: ServiceRuntime, logger: Logger): AnalysisDeps {
  const workers = runtime.settings.SERVICE_ANALYZER_WORKERS;
  return {
    settings: runtime.settings,
    logger,
    knowledge: runtime.knowledge,
    llm: runtime.llm,
    // langgraph's maxConcurrency is broken below 2 (langgraphjs#2656): a per-analysis semaphore enforces 1.
    analyzerSlots: workers < 2 ? createLimiter(workers) : null,
    workspace: null,
  };
}

/** Decodes a parsed body and runs one analysis with the request's own deps (workers, logger). */
export async function analyzeRequest(runtime: ServiceRuntime, body: unknown, options: AnalyzeOptions): Promise<AnalysisResponse> {
  const context = decodeAnalysisRequest(body, options.requestId);
  requireSomethingToAnalyze(context);
  const workers = runtime.settings.SERVICE_ANALYZER_WORKERS;
  const deps = analysisDeps(runtime, options.logger);
  options.logger.info("analysis started", { artifacts: context.artifacts.map((a) => a.field), language: context.language.code });
  const started = performance.now();
  const emit = options.onEvent ?? (() => {});
  const spans = new SpanCollector(spanEvents(emit));
  emit({ type: "run_started", request_id: options.requestId, artifacts: context.artifacts.map((a) => a.field) });
  let response = await runAnalysis(runtime.graph, context, deps, {
    signal: options.signal,
    workers,
    callbacks: [spans, ...(options.callbacks ?? [])],
    onProgress: (chunk) => emit(progressEvent(chunk)),
  });
  if (context.trace || options.debugOutputs) {
    const debug = await collectDebugOutputs(spans.spans, context, deps, options.signal);
    response = { ...response, additional_outputs: { ...response.additional_outputs, ...debug } };
  }
  options.logger.info("analysis finished", { ms: Math.round(performance.now() - started), errors: Object.keys(response.error_messages) });
  return response;
}
