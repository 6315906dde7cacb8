import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGLISH } from "../../../artifacts/language.js";
import { loadServiceSettings } from "../../../config/env.js";
import { AGENT_NAMES, type AgentResult } from "../../../domain/result.js";
import type { AnalysisStateValue } from "../../../graph/state.js";
import { createKnowledgeBase } from "../../../knowledge/create.js";
import type { KnowledgeBase } from "../../../knowledge/knowledge-base.js";
import type { LlmPort } from "../../../llm/port.js";
import { advise } from "../../../nodes/advise/node.js";
import type { PlannedRecommendation } from "../../../nodes/advise/plan.js";
import { testDeps } from "../../support/analysis-deps.js";
import { scenarioResults } from "./scenario.js";

let kb: KnowledgeBase;
let agents: Record<string, AgentResult>;
beforeAll(async () => {
  kb = createKnowledgeBase({ settings: loadServiceSettings({}), llmConfig: null });
  agents = await scenarioResults(kb);
});

function state(): AnalysisStateValue {
  return {
    context: { requestId: "t", datasetName: "shelf", language: ENGLISH, modelName: null, strict: false, trace: false, mlflow: null, artifacts: [] },
    agentResults: agents,
    errors: {},
    facts: {},
    additionalOutputs: {},
    summary: null,
  } as AnalysisStateValue;
}

const run = (llm: LlmPort | null) => advise(state(), { context: testDeps({ knowledge: kb, llm }) } as LangGraphRunnableConfig);

describe("advise node", () => {
  it("puts the plan, its groups, the cited documents and templated advice in additional_outputs", async () => {
    const update = await run(null);
    const out = update.additionalOutputs as Record<string, any>;
    const plan = out.recommendations as PlannedRecommendation[];
    expect(plan.map((r) => r.priority)).toEqual(plan.map((_, i) => i + 1));
    expect(out.recommendation_groups.map((g: { category: string }) => g.category)).toEqual(["training", "data", "infrastructure"]);
    const citedIds = out.citations.map((c: { id: string }) => c.id);
    expect(new Set(citedIds).size).toBe(citedIds.length);
    for (const r of plan) for (const id of r.citations) expect(citedIds).toContain(id);
    for (const c of out.citations) expect(c).toEqual({ id: expect.any(String), title: expect.any(String), url: expect.stringMatching(/^https?:\/\//), source: expect.stringMatching(/\(\d{4}\)\. /), snippet: expect.any(String) });
    expect(out.advice).toMatch(/^Optimization plan/);
    const result = (update.agentResults as Record<string, AgentResult>)[AGENT_NAMES.advise]!;
    expect(result).toMatchObject({ recommendations: plan, summary: out.advice, error_message: null, severity: "info" });
  });

  it("lets the language model reword the plan and write the advice, keeping priorities, links and citations", async () => {
    const llm: Pick<LlmPort, "advise"> = {
      advise: async (req) => ({
        recommendations: req.recommendations.map((r) => ({ ...r, action: `Reworded: ${r.action}`, finding_ids: [], citations: [] })),
        advice: "Stop early, then rebalance.",
      }),
    };
    const update = await run(llm as LlmPort);
    const out = update.additionalOutputs as Record<string, any>;
    const plain = (await run(null)).additionalOutputs as Record<string, any>;
    expect(out.advice).toBe("Stop early, then rebalance.");
    out.recommendations.forEach((r: PlannedRecommendation, i: number) => {
      const before = plain.recommendations[i] as PlannedRecommendation;
      expect(r.action).toBe(`Reworded: ${before.action}`);
      expect(r).toMatchObject({ priority: before.priority, impact: before.impact, finding_ids: before.finding_ids, citations: before.citations });
    });
  });

  it("keeps the templated advice and reports the error when the language model fails", async () => {
    const llm: Pick<LlmPort, "advise"> = { advise: async () => Promise.reject(new Error("rate limited")) };
    const update = await run(llm as LlmPort);
    expect((update.additionalOutputs as Record<string, any>).advice).toMatch(/^Optimization plan/);
    expect(update.errors).toEqual({ [AGENT_NAMES.advise]: "language model advice failed, templated advice kept: rate limited" });
  });
});
