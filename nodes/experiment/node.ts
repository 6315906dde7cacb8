import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { ExperimentStateUpdate, ExperimentStateValue } from "../../graph/experiment-state.js";
import { citationOrder } from "../advise/plan.js";
import { recommendationsOf } from "../agent-result.js";
import { experimentDepsOf } from "./analyze-run.js";
import { detectExperimentFindings } from "./detect.js";
import { buildExperiment } from "./model.js";
import { resolveObjective } from "./objective.js";
import { experimentSummary } from "./summary.js";

/**
 * The experiment node: once every run is analysed, judges them against each other (seed noise, swept ranges,
 * sensitivity, failures, the baseline) from their digests alone, and cites the tuning literature.
 */
export async function reasonAcrossRuns(state: ExperimentStateValue, config: LangGraphRunnableConfig): Promise<ExperimentStateUpdate> {
  const deps = experimentDepsOf(config);
  const digests = Object.values(state.runs);
  const objective = resolveObjective(state.compare.objective, digests.map((d) => d.metrics));
  if (!objective) {
    const error = "no objective: no run logged a validation or test metric whose direction is known; name one with objective.metric (and objective.direction)";
    return { result: { objective: null, findings: [], recommendations: [], citations: [], summary: `${digests.length} run(s) analysed; no cross-run comparison: ${error}.`, baselineComparison: null, noise: null, verdicts: [], error } };
  }
  const experiment = buildExperiment(digests, objective, state.compare.baseline);
  const { findings: detected, comparison } = detectExperimentFindings(experiment);
  const findings = await deps.knowledge.citeFindings(detected, deps.deadline.signal);
  const recommendations = recommendationsOf(findings);
  return {
    result: {
      objective,
      findings,
      recommendations,
      citations: deps.knowledge.describe(citationOrder(findings, recommendations)),
      summary: experimentSummary(experiment, findings, comparison),
      baselineComparison: comparison,
      noise: experiment.noise,
      verdicts: experiment.runs.map((r) => ({ name: r.name, score: r.score, final: r.final, failure: r.failure })),
      error: null,
    },
  };
}
