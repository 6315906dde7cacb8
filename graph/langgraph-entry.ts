import { readRawEnv } from "../config/env.js";
import { analysisDeps } from "../server/analyze-request.js";
import { createServiceRuntime } from "../server/runtime.js";
import type { AnalysisGraph } from "./build.js";
import { Deadline } from "./deadline.js";

type RunMethod = (input: unknown, options?: { context?: Record<string, unknown> }) => unknown;

/**
 * A copy of the graph whose runs always carry `deps` in their context. `withConfig({ context })` is not enough
 * for LangGraph's API server: it passes every run the assistant's context merged with the request's (`{}` by
 * default, langgraph-api storage/ops.mjs), and a run's context replaces the graph's default wholesale. So the run
 * methods put the deps over whatever context the caller gives.
 */
function withBoundContext(graph: AnalysisGraph, deps: object): AnalysisGraph {
  const bound = graph.withConfig({}); // its own object: the API server sets checkpointer and store on it
  const methods = bound as unknown as Record<"invoke" | "stream" | "streamEvents", RunMethod>;
  for (const name of ["invoke", "stream", "streamEvents"] as const) {
    const run = methods[name].bind(bound);
    methods[name] = (input, options) => run(input, { ...options, context: { ...options?.context, ...deps } });
  }
  return bound;
}

/**
 * The analysis graph for LangGraph's own tools (langgraph.json → `langgraphjs dev`), with the service's deps
 * built from the environment like `npm start` (deterministic unless SERVICE_LLM_MODEL_NAME is set). Its input is
 * the graph state's `{ context }`: a decoded request (docs/debugging.md shows how to make one).
 */
const runtime = createServiceRuntime(readRawEnv());
// A CLI run is no HTTP request: its deadline never begins, and each agent's and model step's scope still bounds it.
export const graph = withBoundContext(runtime.graph, analysisDeps(runtime, runtime.logger, new Deadline()));
