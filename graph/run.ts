import type { AnalysisContext } from "../artifacts/context.js";
import { GroundingCollector } from "../llm/grounding/events.js";
import type { AnalysisGraph } from "./build.js";
import type { AnalysisDeps } from "./context.js";
import { type AnalysisResponse, assembleResponse } from "./response.js";
import type { AnalysisStateValue } from "./state.js";

/** An analysis with `strict: true` in which some agent failed (spec §4 rule 2: a 500). */
export class StrictModeError extends Error {
  override name = "StrictModeError";
  constructor(readonly errors: Record<string, string>) {
    super(`strict mode: ${Object.entries(errors).map(([agent, msg]) => `${agent}: ${msg}`).join("; ")}`);
  }
}

export interface RunOptions {
  /** Extra LangChain callbacks (trace spans, streaming). */
  callbacks?: unknown[];
  /** Parallel analyzer branches per superstep; values below 2 are clamped (langgraphjs#2656) and the deps'
   * analyzerSlots limiter enforces the real bound. */
  workers: number;
  /** The run's own end, when narrower than the request's (a comparison's run); default the request's deadline signal. */
  signal?: AbortSignal;
}

/** Runs the graph over one analysis context and assembles the response. */
export async function runAnalysis(
  graph: AnalysisGraph,
  context: AnalysisContext,
  deps: AnalysisDeps,
  options: RunOptions,
): Promise<AnalysisResponse> {
  // Token usage is collected per analysis by a run callback (llm/usage.ts), never process-wide.
  const usage = deps.llm?.startUsage() ?? null;
  // What the grounding pass removed from each agent's answer, announced by the port as run events.
  const grounding = deps.llm ? new GroundingCollector() : null;
  // None at all in deterministic mode: an empty list still makes LangChain set up callbacks for every runnable.
  const callbacks = [...(options.callbacks ?? []), ...(usage ? [usage] : []), ...(grounding ? [grounding] : [])];
  // Streaming clients hear node starts, progress and ends from deps.nodeRuns (graph/node-runs.ts), in order.
  const state = (await graph.invoke(
    { context },
    {
      context: deps as unknown as Record<string, unknown>,
      // The request's end (its time-out, the client gone) stops the run; each step's own budget is a scope of it.
      signal: options.signal ?? deps.deadline.signal,
      maxConcurrency: Math.max(2, options.workers),
      callbacks: callbacks.length > 0 ? (callbacks as never) : undefined,
    },
  )) as AnalysisStateValue;
  const llm = deps.llm
    ? { llm: deps.llm.describe(context.language), ...(usage && { usage: usage.report() }), ...(grounding && { grounding: grounding.report() }) }
    : { llm: { mode: "deterministic", language: "en", note: languageNote(context) } };
  const response = assembleResponse(state, llm);
  if (context.strict && Object.keys(response.error_messages).length > 0) throw new StrictModeError(response.error_messages);
  return response;
}

function languageNote(context: AnalysisContext): string {
  const asked = context.language.code === "en" ? "" : ` (requested: ${context.language.name})`;
  return `No language model is configured: findings come from deterministic detectors and texts are in English${asked}.`;
}
