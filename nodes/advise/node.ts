import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { finishLlmBudgetMs, LLM_BUDGET } from "../../graph/budgets.js";
import { AGENT_NAMES, type AgentResult } from "../../domain/result.js";
import type { AnalysisStateUpdate, AnalysisStateValue } from "../../graph/state.js";
import { depsOf } from "../analyzer.js";
import { prioritizeFindings } from "../findings.js";
import { citeUncited } from "./cite.js";
import { groupRecommendations } from "./groups.js";
import { citationOrder, planRecommendations } from "./plan.js";
import { templateAdvice } from "./template.js";

const ADVISOR = AGENT_NAMES.advise;

/** Optimization advisor: one prioritized, de-duplicated, grouped plan with citations from all agents' recommendations. */
export async function advise(state: AnalysisStateValue, config: LangGraphRunnableConfig): Promise<AnalysisStateUpdate> {
  const deps = depsOf(config);
  const agents = Object.fromEntries(Object.entries(state.agentResults).filter(([name]) => name !== ADVISOR));
  let plan = await citeUncited(planRecommendations(agents), deps.knowledge, config.signal);
  let advice = templateAdvice(plan);
  let error: string | null = null;
  const allFindings = prioritizeFindings(Object.values(agents).flatMap((r) => r.findings));
  if (deps.llm && plan.length > 0) {
    try {
      const llm = deps.llm;
      const request = { language: state.context.language, recommendations: plan, findings: allFindings };
      const out = await deps.deadline.within(finishLlmBudgetMs(deps.deadline, deps.settings, 1), LLM_BUDGET, (signal) => llm.advise(request, { ...config, signal }));
      plan = plan.map((p, i) => ({ ...p, ...(out.recommendations[i] ?? {}), impact: p.impact, priority: p.priority, finding_ids: p.finding_ids, citations: p.citations }));
      advice = out.advice;
    } catch (err) {
      if (config.signal?.aborted) throw err;
      error = `language model advice failed, templated advice kept: ${(err as Error).message}`;
    }
  }
  const citations = deps.knowledge.describe(citationOrder(allFindings, plan));
  const result: AgentResult = {
    agent_name: ADVISOR,
    findings: [],
    recommendations: plan,
    severity: "info",
    confidence: plan.length ? Math.max(...plan.map((p) => p.confidence)) : 0,
    analyzed_artifacts: Object.keys(agents),
    error_message: error,
    analysis: [],
    summary: advice,
  };
  return {
    agentResults: { [ADVISOR]: result },
    additionalOutputs: { recommendations: plan, recommendation_groups: groupRecommendations(plan), citations, advice },
    errors: error ? { [ADVISOR]: error } : {},
  };
}
