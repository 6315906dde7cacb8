import { END, isNodeTimeoutError, type NodeError, START, StateGraph } from "@langchain/langgraph";
import type { ServiceSettings } from "../config/env.js";
import { failedAgent } from "../nodes/analyzer.js";
import { advise } from "../nodes/advise/node.js";
import { analyzeCheckpoint } from "../nodes/checkpoint/node.js";
import { analyzeChecks } from "../nodes/checks/node.js";
import { analyzeDataset } from "../nodes/dataset/node.js";
import { integrate } from "../nodes/integrate/node.js";
import { ANALYZER_NODES, NODE } from "../nodes/names.js";
import { route, routeArtifacts } from "../nodes/route.js";
import { analyzeTraining } from "../nodes/training/node.js";
import { AGENT_NAMES, type AgentName } from "./result.js";
import { AnalysisState, type AnalyzerInput } from "./state.js";

const AGENT_BY_NODE: Record<(typeof ANALYZER_NODES)[number], AgentName> = {
  analyzeDataset: AGENT_NAMES.dataset,
  analyzeChecks: AGENT_NAMES.checks,
  analyzeTraining: AGENT_NAMES.training,
  analyzeCheckpoint: AGENT_NAMES.checkpoint,
};

/** Turns a failed or timed-out analyzer into a partial result instead of failing the run (ARCHITECTURE.md). */
function analyzerErrorHandler(node: (typeof ANALYZER_NODES)[number], timeoutMs: number) {
  return (input: unknown, nodeError: NodeError) => {
    const { error } = nodeError;
    const artifact = (input as AnalyzerInput).artifact;
    const message = isNodeTimeoutError(error)
      ? `timed out after ${timeoutMs} ms (SERVICE_AGENT_TIMEOUT_MS)`
      : `failed: ${error.message}`;
    return failedAgent(AGENT_BY_NODE[node], [artifact.field], message);
  };
}

export type AnalysisGraphSettings = Pick<ServiceSettings, "SERVICE_AGENT_TIMEOUT_MS">;

/** The analysis graph: route → analyzers (parallel Sends) → integrate → advise. */
export function buildAnalysisGraph(settings: AnalysisGraphSettings) {
  const timeout = settings.SERVICE_AGENT_TIMEOUT_MS;
  const analyzer = (node: (typeof ANALYZER_NODES)[number]) => ({
    timeout,
    errorHandler: analyzerErrorHandler(node, timeout),
  });
  return new StateGraph(AnalysisState)
    .addNode(NODE.route, route)
    .addNode(NODE.analyzeDataset, analyzeDataset, analyzer(NODE.analyzeDataset))
    .addNode(NODE.analyzeChecks, analyzeChecks, analyzer(NODE.analyzeChecks))
    .addNode(NODE.analyzeTraining, analyzeTraining, analyzer(NODE.analyzeTraining))
    .addNode(NODE.analyzeCheckpoint, analyzeCheckpoint, analyzer(NODE.analyzeCheckpoint))
    .addNode(NODE.integrate, integrate, { defer: true })
    .addNode(NODE.advise, advise)
    .addEdge(START, NODE.route)
    .addConditionalEdges(NODE.route, routeArtifacts, [...ANALYZER_NODES])
    .addEdge(NODE.analyzeDataset, NODE.integrate)
    .addEdge(NODE.analyzeChecks, NODE.integrate)
    .addEdge(NODE.analyzeTraining, NODE.integrate)
    .addEdge(NODE.analyzeCheckpoint, NODE.integrate)
    .addEdge(NODE.integrate, NODE.advise)
    .addEdge(NODE.advise, END)
    .compile({ name: "analysis" });
}
export type AnalysisGraph = ReturnType<typeof buildAnalysisGraph>;
