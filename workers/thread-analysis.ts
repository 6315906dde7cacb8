import { createLogger } from "../config/logger.js";
import type { ServiceSettings } from "../config/env.js";
import { type AnalysisGraph, buildAnalysisGraph } from "../graph/build.js";
import { Deadline } from "../graph/deadline.js";
import { useLeanRunContext } from "../graph/lean-run-context.js";
import { runAnalysis, StrictModeError } from "../graph/run.js";
import { createKnowledgeBase } from "../knowledge/create.js";
import type { KnowledgePort } from "../knowledge/port.js";
import { analysisDeps } from "../server/analyze-request.js";
import { jsonWriter } from "../server/json-writer.js";
import { configuredSecrets, createRedactor, redactingLogger } from "../server/redaction.js";
import { REQUEST_BUDGET } from "../server/request-deadline.js";
import { SpanCollector } from "../server/trace.js";
import type { AnalysisTask, AnalysisTaskResult } from "./analysis-task.js";
import { citationsOverPort } from "./citation-link.js";

/** What a pool thread builds once for all its analyses: the graph, and the corpus that describes cited documents. */
interface ThreadAnalysis {
  graph: AnalysisGraph;
  describe: KnowledgePort["describe"];
}
let built: ThreadAnalysis | null = null;

function threadAnalysis(settings: ServiceSettings): ThreadAnalysis {
  if (built) return built;
  // As the service runtime does: no LangSmith RunTree per runnable unless LangSmith traces.
  useLeanRunContext();
  const knowledge = createKnowledgeBase({ settings, llmConfig: null });
  built = { graph: buildAnalysisGraph(), describe: (ids) => knowledge.describe(ids) };
  return built;
}

/**
 * Runs the graph over the context as analyzeRequest does on the event loop (the same deps, the deadline's time
 * left, node spans) and writes the answer with the service's JSON writer. Citations are asked of the event loop.
 */
export async function analyseOnThread(task: AnalysisTask): Promise<AnalysisTaskResult> {
  const { context, settings } = task;
  const { graph, describe } = threadAnalysis(settings);
  const redactor = createRedactor(configuredSecrets(settings, null));
  const logger = redactingLogger(createLogger(settings.SERVICE_LOG_LEVEL), redactor).child({ request_id: context.requestId });
  const deadline = new Deadline().begin(task.remainingMs, REQUEST_BUDGET);
  const spans = new SpanCollector();
  try {
    const knowledge = citationsOverPort(task.citations, describe);
    const deps = { ...analysisDeps({ settings, knowledge, llm: null }, logger, deadline), nodeRuns: spans };
    const response = await runAnalysis(graph, context, deps, { workers: settings.SERVICE_ANALYZER_WORKERS });
    return { text: jsonWriter(redactor)(response), errorAgents: Object.keys(response.error_messages), spans: spans.spans };
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    return { failed: { name: e.name, message: e.message, ...(err instanceof StrictModeError && { strictErrors: err.errors }) }, spans: spans.spans };
  } finally {
    deadline.dispose();
    task.citations.close();
  }
}
