import type { AnalysisContext } from "../artifacts/context.js";
import { RequestDecodeError, decodeAnalysisRequest } from "../artifacts/request.js";
import { needsTrackingServer, resolveReferences } from "../artifacts/resolve.js";
import { createWorkspace } from "../artifacts/workspace.js";
import type { Logger } from "../config/logger.js";
import { resolveCheckpointPath } from "../nodes/checkpoint/paths.js";
import type { AnalysisDeps } from "../graph/context.js";
import type { Deadline } from "../graph/deadline.js";
import { createLimiter } from "../graph/limiter.js";
import type { AnalysisResponse } from "../graph/response.js";
import { runAnalysis } from "../graph/run.js";
import { collectDebugOutputs } from "./debug-outputs.js";
import { type RunEventSink, spanEvents } from "./run-events.js";
import type { ServiceRuntime } from "./runtime.js";
import { SpanCollector, type SpanListener } from "./trace.js";

export interface AnalyzeOptions {
  requestId: string;
  logger: Logger;
  /** The request's one clock (graph/deadline.ts), begun by the caller; the MLflow pull and the graph run on it. */
  deadline: Deadline;
  callbacks?: unknown[];
  /** Receives the run's events as they happen (node spans, progress): the SSE stream. */
  onEvent?: RunEventSink;
  /** Adds the debug outputs (trace, curves) whatever the request says: the HTML report shows them. */
  debugOutputs?: boolean;
}

/** A request must name something to analyze: inline artifacts, a tracking-server reference, or (with a server) a dataset name. */
function requireSomethingToAnalyze(context: AnalysisContext, settings: ServiceRuntime["settings"]): void {
  if (context.artifacts.length > 0 || context.mlflow || needsTrackingServer(context, settings)) return;
  throw new RequestDecodeError(
    "(body): nothing to analyze: give at least one of dataset_artifacts, checks_artifacts, training_artifacts, model_checkpoint_artifacts, or an mlflow reference",
  );
}

/**
 * Checks every inline checkpoint_path against SERVICE_ARTIFACT_ROOTS before anything runs, so a path outside the
 * roots (or escaping them through `..` or a symlink) is a 400 naming the rule, never a read.
 */
async function checkCheckpointPaths(context: AnalysisContext, roots: readonly string[]): Promise<void> {
  for (const artifact of context.artifacts) {
    const path = artifact.payload.checkpoint_path;
    if (artifact.kind === "checkpoint" && typeof path === "string") await resolveCheckpointPath(path, roots);
  }
}

/** The deps of one analysis over the runtime (also what graph/langgraph-entry.ts binds for the LangGraph CLI). */
export function analysisDeps(runtime: ServiceRuntime, logger: Logger, deadline: Deadline): AnalysisDeps {
  const workers = runtime.settings.SERVICE_ANALYZER_WORKERS;
  return {
    settings: runtime.settings,
    logger,
    knowledge: runtime.knowledge,
    llm: runtime.llm,
    // langgraph's maxConcurrency is broken below 2 (langgraphjs#2656): a per-analysis semaphore enforces 1.
    analyzerSlots: workers < 2 ? createLimiter(workers) : null,
    deadline,
    workspace: null,
  };
}

/** Refuses a body that could not run (400, as /v1/analyse would) before it is queued as a job. */
export async function checkAnalysisRequest(runtime: ServiceRuntime, body: unknown, requestId: string): Promise<void> {
  const decoded = decodeAnalysisRequest(body, requestId);
  requireSomethingToAnalyze(decoded, runtime.settings);
  await checkCheckpointPaths(decoded, runtime.settings.SERVICE_ARTIFACT_ROOTS);
}

/** Decodes a parsed body and runs one analysis with the request's own deps (workers, logger). */
export async function analyzeRequest(runtime: ServiceRuntime, body: unknown, options: AnalyzeOptions): Promise<AnalysisResponse> {
  const decoded = decodeAnalysisRequest(body, options.requestId);
  requireSomethingToAnalyze(decoded, runtime.settings);
  await checkCheckpointPaths(decoded, runtime.settings.SERVICE_ARTIFACT_ROOTS);
  // Events are built only for a stream that asked for them (SSE); a plain JSON request builds none.
  const emit = options.onEvent;
  emit?.({ type: "run_started", request_id: options.requestId, artifacts: decoded.artifacts.map((a) => a.field) });
  // Pulled artifacts live in a per-request workspace, removed whatever happens (error, time-out, disconnect).
  const workspace = needsTrackingServer(decoded, runtime.settings) ? await createWorkspace(runtime.settings.SERVICE_WORKSPACE_DIR) : null;
  try {
    const context = workspace
      ? await resolveReferences(decoded, {
          settings: runtime.settings,
          deadline: options.deadline,
          workspace: workspace.dir,
          logger: options.logger,
          progress: (message) => emit?.({ type: "progress", node: "mlflow", message }),
        })
      : decoded;
    return await analyzeContext(runtime, context, { ...options, workspace: workspace?.dir ?? null });
  } finally {
    await workspace?.dispose();
  }
}

/** Runs the graph over a resolved context (inline and pulled artifacts). */
async function analyzeContext(
  runtime: ServiceRuntime,
  context: AnalysisContext,
  options: AnalyzeOptions & { workspace: string | null },
): Promise<AnalysisResponse> {
  const workers = runtime.settings.SERVICE_ANALYZER_WORKERS;
  options.logger.info("analysis started", { artifacts: context.artifacts.map((a) => `${a.field}${a.origin === "mlflow" ? " (mlflow)" : ""}`), language: context.language.code });
  const started = performance.now();
  const events: SpanListener = options.onEvent ? spanEvents(options.onEvent) : {};
  const timing = runtime.metrics.spans;
  const spans = new SpanCollector({
    started: events.started,
    progress: events.progress,
    finished: (span) => {
      timing.finished?.(span);
      events.finished?.(span);
    },
  });
  const deps = { ...analysisDeps(runtime, options.logger, options.deadline), workspace: options.workspace, nodeRuns: spans };
  let response = await runAnalysis(runtime.graph, context, deps, {
    workers,
    // The spans hear the grounding reports as a callback; without a model no callback is set up at all.
    callbacks: [...(runtime.llm ? [spans] : []), ...(options.callbacks ?? [])],
  });
  if (context.trace || options.debugOutputs) {
    const debug = await collectDebugOutputs(spans.spans, context, options.deadline.signal);
    response = { ...response, additional_outputs: { ...response.additional_outputs, ...debug } };
  }
  options.logger.info("analysis finished", { ms: Math.round(performance.now() - started), errors: Object.keys(response.error_messages) });
  return response;
}
