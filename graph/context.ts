import type { ServiceSettings } from "../config/env.js";
import type { Logger } from "../config/logger.js";
import type { KnowledgePort } from "../knowledge/port.js";
import type { LlmPort } from "../llm/port.js";
import type { Deadline } from "./deadline.js";
import type { Limiter } from "./limiter.js";
import type { NodeRunSink } from "./node-runs.js";

/**
 * Dependencies the nodes reach through the run's typed context (`config.context`), never module globals, so
 * tests pass their own.
 */
export interface AnalysisDeps {
  settings: Readonly<ServiceSettings>;
  logger: Logger;
  knowledge: KnowledgePort;
  /** null: deterministic mode, no language model configured. */
  llm: LlmPort | null;
  /** Analyzer slots; shared by every analysis of the process when SERVICE_ANALYZER_WORKERS < 2. */
  analyzerSlots: Limiter | null;
  /** The request's one clock: every agent, model and tracking-server budget is a scope of it (graph/deadline.ts). */
  deadline: Deadline;
  /** The request's temporary workspace (pulled artifacts), or null when nothing was pulled. */
  workspace: string | null;
  /** Told of each node run (spans for metrics, SSE and `trace`); none for a run nobody times (a comparison's). */
  nodeRuns?: NodeRunSink;
}
