import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { finishLlmBudgetMs, LLM_BUDGET } from "../../graph/budgets.js";
import { AGENT_NAMES } from "../../domain/result.js";
import type { AnalysisStateUpdate, AnalysisStateValue } from "../../graph/state.js";
import { buildAgentResult } from "../agent-result.js";
import { depsOf } from "../analyzer.js";
import { prioritizeFindings } from "../findings.js";
import { collectCrossEvidence } from "./evidence.js";
import { runCrossRules } from "./rules/index.js";
import { templateSummary } from "./summary.js";

/** Cross-artifact reasoning: rules over all analyzers' evidence, then the summary (LLM or template). */
export async function integrate(state: AnalysisStateValue, config: LangGraphRunnableConfig): Promise<AnalysisStateUpdate> {
  const deps = depsOf(config);
  const name = AGENT_NAMES.integrate;
  const crossFindings = await deps.knowledge.citeFindings(
    prioritizeFindings(runCrossRules(collectCrossEvidence(state.agentResults, state.facts))),
    config.signal,
  );
  let summary = templateSummary(state.agentResults, crossFindings, state.errors);
  let error: string | null = null;
  if (deps.llm && summary !== null) {
    try {
      // Its own budget from what the request has left, shared with the advisor's model step after it.
      const llm = deps.llm;
      summary = await deps.deadline.within(finishLlmBudgetMs(deps.deadline, deps.settings, 2), LLM_BUDGET, (signal) =>
        llm.summarize({ language: state.context.language, agentResults: state.agentResults, crossFindings }, { ...config, signal }),
      );
    } catch (err) {
      if (config.signal?.aborted) throw err;
      error = `language model summary failed, templated summary kept: ${(err as Error).message}`;
    }
  }
  const analyzed = Object.keys(state.agentResults);
  return {
    agentResults: { [name]: buildAgentResult(name, crossFindings, analyzed, error, summary) },
    summary,
    errors: error ? { [name]: error } : {},
  };
}
