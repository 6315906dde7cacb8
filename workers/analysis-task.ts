import type { MessagePort } from "node:worker_threads";
import type { AnalysisContext } from "../artifacts/context.js";
import type { ServiceSettings } from "../config/env.js";
import type { Span } from "../domain/trace.js";
import type { TaskOutput } from "./tasks.js";

export interface AnalysisTask {
  context: AnalysisContext;
  settings: ServiceSettings;
  /** What the request's deadline had left when the task was posted. */
  remainingMs: number;
  /** Where the thread asks the event loop for citations (workers/citation-link.ts). */
  citations: MessagePort;
}

/** What made an analysis fail, for the event loop to rebuild (server/pool-analysis.ts). */
export interface FailedAnalysis {
  name: string;
  message: string;
  /** A strict-mode failure's agent errors (graph/run.ts). */
  strictErrors?: Record<string, string>;
}

/** The answer's JSON text as the service writes it, or why it failed; the node spans either way. */
export type AnalysisTaskResult = { spans: Span[] } & ({ text: string; errorAgents: string[] } | { failed: FailedAnalysis });

/**
 * Worker task: one offline analysis of a decoded request, written as its JSON answer, so that the event loop only
 * reads requests and sends answers (server/pool-analysis.ts chooses when). The graph is imported on a thread's
 * first analysis: the pool's other tasks never load LangGraph or the corpus.
 */
export async function analysisTask(task: AnalysisTask): Promise<TaskOutput<AnalysisTaskResult>> {
  const { analyseOnThread } = await import("./thread-analysis.js");
  return { value: await analyseOnThread(task), transfer: [] };
}
