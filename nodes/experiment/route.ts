import type { Send } from "@langchain/langgraph";
import { sendByReference } from "../../graph/send.js";
import type { ExperimentStateValue, RunInput } from "../../graph/experiment-state.js";
import { EXPERIMENT_NODE } from "./names.js";
import { normalizedObjectiveName } from "./objective.js";

/** One Send per run to the per-run analysis; the experiment graph's maxConcurrency bounds how many run at once. */
export function routeRuns(state: Pick<ExperimentStateValue, "compare">): Send[] {
  const objective = state.compare.objective;
  const wanted = objective ? normalizedObjectiveName(objective.metric) : null;
  return state.compare.runs.map((run) => sendByReference(EXPERIMENT_NODE.analyzeRun, { run, wanted } satisfies RunInput));
}
