import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { ExperimentStateUpdate, ExperimentStateValue } from "../../graph/experiment-state.js";
import { finishLlmBudgetMs, LLM_BUDGET } from "../../graph/budgets.js";
import type { Finding } from "../../domain/result.js";
import { citationOrder } from "../advise/plan.js";
import { buildAgentResult, recommendationsOf } from "../agent-result.js";
import { experimentDepsOf } from "./analyze-run.js";
import { detectExperimentFindings } from "./detect.js";
import { buildExperiment } from "./model.js";
import { EXPERIMENT_AGENT } from "./names.js";
import { resolveObjective } from "./objective.js";
import { experimentSummary } from "./summary.js";

/**
 * With a model configured, the summary is the model's narration of the cross-run findings (the same summarizer
 * and grounding as a single analysis); the templated one stays when the model fails, with the error reported.
 */
async function narrate(
  template: string,
  findings: Finding[],
  state: ExperimentStateValue,
  config: LangGraphRunnableConfig,
): Promise<{ summary: string; error: string | null }> {
  const deps = experimentDepsOf(config);
  const llm = deps.llm;
  if (!llm) return { summary: template, error: null };
  const agentResults = { [EXPERIMENT_AGENT]: buildAgentResult(EXPERIMENT_AGENT, findings, Object.keys(state.runs), null, template) };
  try {
    const summary = await deps.deadline.within(finishLlmBudgetMs(deps.deadline, deps.settings, 1), LLM_BUDGET, (signal) =>
      llm.summarize({ language: state.compare.language, agentResults, crossFindings: [] }, { ...config, signal }),
    );
    return { summary, error: null };
  } catch (err) {
    if (config.signal?.aborted) throw err;
    return { summary: template, error: `language model summary failed, templated summary kept: ${(err as Error).message}` };
  }
}

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
  const { summary, error } = await narrate(experimentSummary(experiment, findings, comparison), findings, state, config);
  return {
    result: {
      objective,
      findings,
      recommendations,
      citations: deps.knowledge.describe(citationOrder(findings, recommendations)),
      summary,
      baselineComparison: comparison,
      noise: experiment.noise,
      verdicts: experiment.runs.map((r) => ({ name: r.name, score: r.score, final: r.final, failure: r.failure })),
      error,
    },
  };
}
