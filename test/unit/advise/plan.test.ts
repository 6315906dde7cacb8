import { beforeAll, describe, expect, it } from "vitest";
import { loadServiceSettings } from "../../../config/env.js";
import { AGENT_NAMES, type AgentResult } from "../../../domain/result.js";
import { createKnowledgeBase } from "../../../knowledge/create.js";
import type { KnowledgeBase } from "../../../knowledge/knowledge-base.js";
import { citeUncited } from "../../../nodes/advise/cite.js";
import { groupRecommendations } from "../../../nodes/advise/groups.js";
import { citationOrder, planRecommendations } from "../../../nodes/advise/plan.js";
import { templateAdvice } from "../../../nodes/advise/template.js";
import { themeOf } from "../../../nodes/advise/themes.js";
import { prioritizeFindings } from "../../../nodes/findings.js";
import { LLM_EXTRA, scenarioResults } from "./scenario.js";

let kb: KnowledgeBase;
let agents: Record<string, AgentResult>;
beforeAll(async () => {
  kb = createKnowledgeBase({ settings: loadServiceSettings({}), llmConfig: null });
  agents = await scenarioResults(kb);
});

describe("the advisor's plan", () => {
  it("merges the same advice from several agents into one recommendation addressing all their findings", () => {
    const plan = planRecommendations(agents);
    const stopping = plan.filter((r) => r.theme === "early_stopping");
    expect(stopping).toHaveLength(1);
    const [merged] = stopping;
    expect(merged!.finding_ids.sort()).toEqual(["cross.saved_wrong_checkpoint", "training.early_stop_opportunity", "training.overfitting"]);
    expect(merged!.agents.sort()).toEqual([AGENT_NAMES.integrate, AGENT_NAMES.training].sort());
    expect(merged!.merged_actions).toHaveLength(2);
    expect(merged!.citations).toEqual(expect.arrayContaining(["overfitting-regularization", "early-stopping", "keep-best-checkpoint"]));
    expect(merged!.action).toBe("Enable early stopping and keep the best checkpoint; add weight decay and augmentation.");
  });

  it("keeps different advice apart (reweighting classes is not choosing metrics)", () => {
    const plan = planRecommendations(agents);
    expect(plan.find((r) => r.theme === "rebalance_classes")?.finding_ids).toEqual(["dataset.class_imbalance"]);
    expect(plan.find((r) => r.theme === "imbalance_metrics")?.finding_ids).toEqual(["cross.imbalance_accuracy_only"]);
    expect(plan).toHaveLength(6);
  });

  it("orders by expected impact (severity weight × confidence summed over findings), then effort", () => {
    const plan = planRecommendations(agents);
    // early stopping: 0.75×0.85 + 0.25×0.8 + 0.5×0.8 = 1.2375 → rounded to 3 decimals
    expect(plan[0]).toMatchObject({ priority: 1, theme: "early_stopping", impact: 1.238 });
    expect(plan.map((r) => r.priority)).toEqual([1, 2, 3, 4, 5, 6]);
    for (let i = 1; i < plan.length; i++) expect(plan[i - 1]!.impact).toBeGreaterThanOrEqual(plan[i]!.impact);
    // label drift (0.5625, medium effort) and imbalance metrics (0.525, low effort): impact decides first
    const drift = plan.find((r) => r.finding_ids.includes("checks.label_drift"))!;
    const metrics = plan.find((r) => r.theme === "imbalance_metrics")!;
    expect(drift.priority).toBeLessThan(metrics.priority);
    expect(plan.at(-1)!.finding_ids).toEqual(["checkpoint.size_vs_params"]);
  });

  it("breaks equal impact by effort: the cheaper step comes first", () => {
    const base = Object.values(agents)[0]!;
    const f = base.findings[0]!;
    const one = (action: string, effort: "low" | "high") => ({
      action,
      rationale: "r",
      confidence: f.confidence,
      category: "training" as const,
      effort,
      finding_ids: [f.id],
      citations: ["early-stopping"],
      source: "detector" as const,
    });
    const plan = planRecommendations({
      A: { ...base, recommendations: [one("Rewrite the training loop in JAX", "high")] },
      B: { ...base, recommendations: [one("Halve the batch size", "low")] },
    });
    expect(plan.map((r) => r.effort)).toEqual(["low", "high"]);
  });

  it("groups the plan by area of work, each recommendation in one group, groups by first priority", () => {
    const plan = planRecommendations(agents);
    const groups = groupRecommendations(plan);
    expect(groups.map((g) => g.category)).toEqual(["training", "data", "infrastructure"]);
    expect(groups.flatMap((g) => g.priorities).sort()).toEqual(plan.map((r) => r.priority).sort());
    for (const g of groups) for (const p of g.priorities) expect(plan[p - 1]!.category).toBe(g.category);
  });

  it("gives every recommendation at least one citation that resolves to a corpus document", async () => {
    const withExtra = {
      ...agents,
      [AGENT_NAMES.training]: { ...agents[AGENT_NAMES.training]!, recommendations: [...agents[AGENT_NAMES.training]!.recommendations, LLM_EXTRA] },
    };
    const plan = await citeUncited(planRecommendations(withExtra), kb);
    const known = new Set(kb.documents.map((d) => d.id));
    for (const r of plan) {
      expect(r.citations.length, r.action).toBeGreaterThan(0);
      for (const id of r.citations) expect(known.has(id), id).toBe(true);
    }
    expect(plan.find((r) => r.source === "llm")!.citations).toContain("mixed-precision-overflow");
  });

  it("lists each cited document once, findings' citations first", () => {
    const plan = planRecommendations(agents);
    const findings = prioritizeFindings(Object.values(agents).flatMap((r) => r.findings));
    const order = citationOrder(findings, plan);
    expect(new Set(order).size).toBe(order.length);
    expect(order.slice(0, findings[0]!.citations.length)).toEqual(findings[0]!.citations);
    expect(kb.describe(order).map((c) => c.id)).toEqual(order);
  });

  it("writes templated advice: the top steps with what they address and their sources", () => {
    const text = templateAdvice(planRecommendations(agents))!;
    const lines = text.split("\n");
    expect(lines[0]).toBe("Optimization plan, most expected impact first (6 steps):");
    expect(lines[1]).toMatch(/^1\. \[training, low effort\] Enable early stopping .* Addresses training\.overfitting, .* See .*early-stopping/);
    expect(templateAdvice([])).toBeNull();
  });
});

describe("advice themes", () => {
  it.each([
    ["Restore the best checkpoint", "early_stopping"],
    ["Lower the peak learning rate and add warmup", "lower_learning_rate"],
    ["Warm up for longer, then lower the learning rate", "warmup"],
    ["Remove the overlapping rows and re-evaluate", "fix_leakage"],
    ["Switch to bf16", "precision"],
    ["Standardize the inputs with train statistics", "normalize_inputs"],
    ["Rename the columns", null],
  ])("%s → %s", (action, theme) => {
    expect(themeOf(action)).toBe(theme);
  });
});
