import { END, START, StateGraph } from "@langchain/langgraph";
import { analyzeRun } from "../nodes/experiment/analyze-run.js";
import { EXPERIMENT_NODE } from "../nodes/experiment/names.js";
import { reasonAcrossRuns } from "../nodes/experiment/node.js";
import { routeRuns } from "../nodes/experiment/route.js";
import { ExperimentState } from "./experiment-state.js";

/**
 * The experiment graph beside the per-run one: START ─Send per run─▶ analyzeRun (the per-run graph, then the
 * run reduced to its digest) ─▶ reasonAcrossRuns ─▶ END.
 */
export function buildExperimentGraph() {
  return new StateGraph(ExperimentState)
    .addNode(EXPERIMENT_NODE.analyzeRun, analyzeRun)
    .addNode(EXPERIMENT_NODE.reasonAcrossRuns, reasonAcrossRuns, { defer: true })
    .addConditionalEdges(START, routeRuns, [EXPERIMENT_NODE.analyzeRun])
    .addEdge(EXPERIMENT_NODE.analyzeRun, EXPERIMENT_NODE.reasonAcrossRuns)
    .addEdge(EXPERIMENT_NODE.reasonAcrossRuns, END)
    .compile({ name: "experiment" });
}
export type ExperimentGraph = ReturnType<typeof buildExperimentGraph>;
