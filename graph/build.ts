import { END, type NodeError, START, StateGraph } from "@langchain/langgraph";
import { failedAgent } from "../nodes/analyzer.js";
import { advise } from "../nodes/advise/node.js";
import { analyzeCheckpoint } from "../nodes/checkpoint/node.js";
import { analyzeChecks } from "../nodes/checks/node.js";
import { analyzeDataset } from "../nodes/dataset/node.js";
import { integrate } from "../nodes/integrate/node.js";
import { AGENT_OF_NODE, ANALYZER_NODES, NODE } from "../nodes/names.js";
import { route, routeArtifacts } from "../nodes/route.js";
import { analyzeTraining } from "../nodes/training/node.js";
import { reportingRuns } from "./node-runs.js";
import { AnalysisState, type AnalyzerInput } from "./state.js";

/**
 * Turns an analyzer that threw into a partial result instead of failing the run (ARCHITECTURE.md). Time-outs
 * are not LangGraph's node `timeout`, which drops everything the node did: the analyzer's own budget
 * (nodes/analyzer.ts) returns its detector findings with the error.
 */
function analyzerErrorHandler(node: (typeof ANALYZER_NODES)[number]) {
  return (input: unknown, nodeError: NodeError) => {
    const artifact = (input as AnalyzerInput).artifact;
    return failedAgent(AGENT_OF_NODE[node], [artifact.field], `failed: ${nodeError.error.message}`);
  };
}

/** The function each node of the analysis graph runs. */
export const ANALYSIS_NODES = { route, analyzeDataset, analyzeChecks, analyzeTraining, analyzeCheckpoint, integrate, advise };

/**
 * The analysis graph: route → analyzers (parallel Sends) → integrate → advise; each node reports its runs
 * (graph/node-runs.ts). `nodes` replaces what the nodes run, never the topology: the bench's framework floor
 * times this graph with nodes that do nothing.
 */
export function buildAnalysisGraph(nodes: typeof ANALYSIS_NODES = ANALYSIS_NODES) {
  const analyzer = (node: (typeof ANALYZER_NODES)[number]) => ({ errorHandler: analyzerErrorHandler(node) });
  return new StateGraph(AnalysisState)
    .addNode(NODE.route, reportingRuns(NODE.route, nodes.route))
    .addNode(NODE.analyzeDataset, reportingRuns(NODE.analyzeDataset, nodes.analyzeDataset), analyzer(NODE.analyzeDataset))
    .addNode(NODE.analyzeChecks, reportingRuns(NODE.analyzeChecks, nodes.analyzeChecks), analyzer(NODE.analyzeChecks))
    .addNode(NODE.analyzeTraining, reportingRuns(NODE.analyzeTraining, nodes.analyzeTraining), analyzer(NODE.analyzeTraining))
    .addNode(NODE.analyzeCheckpoint, reportingRuns(NODE.analyzeCheckpoint, nodes.analyzeCheckpoint), analyzer(NODE.analyzeCheckpoint))
    .addNode(NODE.integrate, reportingRuns(NODE.integrate, nodes.integrate), { defer: true })
    .addNode(NODE.advise, reportingRuns(NODE.advise, nodes.advise))
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
