import { setImmediate as nextTurn } from "node:timers/promises";
import { MessageChannel } from "node:worker_threads";
import type { AnalysisContext } from "../artifacts/context.js";
import { needsTrackingServer } from "../artifacts/resolve.js";
import type { Logger } from "../config/logger.js";
import type { Deadline } from "../graph/deadline.js";
import { StrictModeError } from "../graph/run.js";
import { WORKER_EXAMINE_MIN_BYTES } from "../nodes/examine-off-loop.js";
import type { FailedAnalysis } from "../workers/analysis-task.js";
import { answerCitations } from "../workers/citation-link.js";
import { runTask } from "../workers/pool.js";
import type { Admission } from "./admission.js";
import { logAnalysis } from "./analyze-request.js";
import type { ServiceRuntime } from "./runtime.js";

/**
 * Whether a decoded request's whole analysis can run on a pool thread: offline (no language model), nothing to
 * pull or read from disk (no tracking server, no checkpoint file), no trace asked for (its debug outputs read the
 * spans on the event loop), the service's own knowledge base (a test's port lives on the event loop), and a body
 * small enough that no part of the analysis uses the pool itself (server/json-body.ts, nodes/examine-off-loop.ts).
 */
export function poolCanAnalyse(runtime: ServiceRuntime, context: AnalysisContext, bodyBytes: number): boolean {
  return (
    runtime.llm === null &&
    runtime.llmConfig === null &&
    runtime.knowledge === runtime.knowledgeBase &&
    bodyBytes < WORKER_EXAMINE_MIN_BYTES &&
    !context.trace &&
    !needsTrackingServer(context, runtime.settings) &&
    !context.artifacts.some((a) => a.kind === "checkpoint" && typeof a.payload.checkpoint_path === "string")
  );
}

/**
 * Whether other work requests wait for the event loop. An offline analysis on the event loop runs to its end in
 * one turn, so requests that came in meanwhile have not even been read: one turn is given first, which reads
 * them (each counted on arrival). Alone (concurrency 1) the analysis stays on the event loop, without the hop;
 * with others waiting it goes to the pool, and the event loop goes on reading requests and sending answers.
 */
export async function othersWaiting(admission: Admission): Promise<boolean> {
  await nextTurn();
  return admission.open > 1;
}

/** The error an analysis on a pool thread failed with, as the error handler maps it (graph/run.ts, server/errors.ts). */
function rebuilt(failed: FailedAnalysis): Error {
  if (failed.strictErrors) return new StrictModeError(failed.strictErrors);
  return Object.assign(new Error(failed.message), { name: failed.name });
}

/**
 * Runs a request's analysis on a pool thread (workers/thread-analysis.ts) and gives its JSON answer, logged and
 * timed as on the event loop: the start and end log lines here, the node spans into the metrics. The thread asks
 * the event loop for citations, so the knowledge cache stays the process's one.
 */
export async function analyseOnPool(runtime: ServiceRuntime, context: AnalysisContext, options: { logger: Logger; deadline: Deadline }): Promise<string> {
  const finished = logAnalysis(options.logger, context);
  const { port1, port2 } = new MessageChannel();
  const stopCitations = answerCitations(port1, runtime.knowledge, options.deadline.signal);
  try {
    const task = { context, settings: runtime.settings, remainingMs: options.deadline.remainingMs(), citations: port2 };
    const result = await runTask("analysis", task, { transfer: [port2] });
    for (const span of result.spans) runtime.metrics.spans.finished?.(span);
    if ("failed" in result) throw rebuilt(result.failed);
    finished(result.errorAgents);
    return result.text;
  } finally {
    stopCitations();
  }
}
