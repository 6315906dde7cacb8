import { describe, expect, it } from "vitest";
import type { Language } from "../../../artifacts/language.js";
import { AGENT_NAMES, type AgentResult, type Finding, type Recommendation } from "../../../domain/result.js";
import { CHARS_PER_TOKEN, estimateTokens, languageRule, PROMPT_TOKEN_BUDGET, promptTokens } from "../../../llm/prompt-kit.js";
import { ANALYZER_PROMPTS, reviewPrompt } from "../../../llm/review-prompt.js";
import { advicePrompt } from "../../../nodes/advise/prompt.js";
import { buildAgentResult } from "../../../nodes/agent-result.js";
import { detectorFinding } from "../../../nodes/findings.js";
import { summaryPrompt } from "../../../nodes/integrate/prompt.js";

const japanese: Language = { code: "ja", name: "Japanese" };
const N = 1_000_000;

/** A 10^6-point training history as an artifact would carry it (seeded, deterministic). */
function history(n: number) {
  const steps = Array.from({ length: n }, (_, i) => i);
  const loss = steps.map((i) => 2 * Math.exp(-i / (n / 4)) + 0.01 * Math.sin(i * 12.9898));
  return { metrics: { step: steps, train_loss: loss, val_loss: loss.map((v, i) => v + i / n) }, logs: steps.slice(0, 50_000).map((i) => `step ${i} ok`) };
}

function finding(i: number, agent = "training"): Finding {
  return detectorFinding({
    id: `${agent}.rule_${i}`,
    title: `Rule ${i} fired`,
    description: `A long explanation of rule ${i}: `.padEnd(2000, "x"),
    evidence: Array.from({ length: 5 }, (_, k) => ({ rule_id: `TH-${k}`, artifact: "training_artifacts.metrics", text: "t".repeat(500), values: Object.fromEntries(Array.from({ length: 40 }, (_, j) => [`v${j}`, j])) })),
    severity: i % 2 ? "high" : "medium",
    confidence: 0.5 + (i % 40) / 100,
    recommendation: { action: "a".repeat(800), rationale: "r".repeat(800), category: "training", effort: "low" },
  });
}

const many = (n: number, agent?: string) => Array.from({ length: n }, (_, i) => finding(i, agent));

describe("prompt size bound", () => {
  it("counts about one token per three characters", () => {
    expect(CHARS_PER_TOKEN).toBe(3);
    expect(estimateTokens("x".repeat(3000))).toBe(1000);
  });

  it.each(Object.keys(ANALYZER_PROMPTS))("keeps the %s review under the budget with a 10^6-point history and 500 findings", (agent) => {
    const { messages, shown } = reviewPrompt(ANALYZER_PROMPTS[agent]!.prompt, { agentName: agent, language: japanese, digest: history(N), findings: many(500) });
    // What the grounding pass reads is what the model was sent.
    expect(shown).toStrictEqual(JSON.parse(messages[1].content));
    expect(promptTokens(messages)).toBeLessThanOrEqual(PROMPT_TOKEN_BUDGET);
    const input = JSON.parse(messages[1].content) as { findings: unknown[]; digest: { metrics: { train_loss: { summarized_array: number } } } };
    expect(input.digest.metrics.train_loss.summarized_array).toBe(N);
    expect(input.findings.at(-1)).toMatch(/more findings not shown/);
    expect(messages[0].content).toContain(languageRule(japanese));
  });

  it("keeps the cross-artifact summary under the budget with 4 × 500 findings", () => {
    const results: Record<string, AgentResult> = Object.fromEntries(
      ["dataset", "checks", "training", "checkpoint"].map((kind) => [kind, buildAgentResult(kind, many(500, kind), ["x".repeat(5000)], null, "s".repeat(10_000))]),
    );
    const { messages, shown } = summaryPrompt({ language: japanese, agentResults: results, crossFindings: many(300, "cross") });
    // What the grounding pass reads is what the model was sent.
    expect(shown).toStrictEqual(JSON.parse(messages[1].content));
    expect(promptTokens(messages)).toBeLessThanOrEqual(PROMPT_TOKEN_BUDGET);
    const input = JSON.parse(messages[1].content) as { agents: unknown[]; findings: Array<{ agent?: string }> };
    expect(input.agents).toHaveLength(4);
    expect(input.findings[0]!.agent).toBeDefined();
  });

  it("keeps the advice prompt under the budget with 1000 recommendations", () => {
    const recs: Recommendation[] = Array.from({ length: 1000 }, (_, i) => ({ action: "a".repeat(900), rationale: "r".repeat(900), confidence: 0.5, category: "data", effort: "low", finding_ids: [`x.${i}`], citations: [], source: "detector" }));
    const { messages, shown } = advicePrompt({ language: japanese, recommendations: recs, findings: many(500) });
    // What the grounding pass reads is what the model was sent.
    expect(shown).toStrictEqual(JSON.parse(messages[1].content));
    expect(promptTokens(messages)).toBeLessThanOrEqual(PROMPT_TOKEN_BUDGET);
    const input = JSON.parse(messages[1].content) as { recommendations: Array<{ priority: number }> };
    expect(input.recommendations[0]!.priority).toBe(1);
  });
});

describe("prompt content", () => {
  const small = finding(1);

  it("gives a small artifact to the model whole, with every finding and its numbers", () => {
    const digest = { epochs: 60, best_val_loss: { epoch: 23, value: 0.55 }, final_val_loss: 1.18 };
    const { messages, shown } = reviewPrompt(ANALYZER_PROMPTS[AGENT_NAMES.training]!.prompt, { agentName: AGENT_NAMES.training, language: japanese, digest, findings: [small] });
    // What the grounding pass reads is what the model was sent.
    expect(shown).toStrictEqual(JSON.parse(messages[1].content));
    const input = JSON.parse(messages[1].content) as { agent: string; digest: unknown; findings: Array<{ id: string; evidence: unknown[] }> };
    expect(input.agent).toBe(AGENT_NAMES.training);
    expect(input.digest).toEqual(digest);
    expect(input.findings.map((f) => f.id)).toEqual([small.id]);
    expect(input.findings[0]!.evidence).toHaveLength(3);
  });

  it("tells every agent which language to write in and that detector findings stand", () => {
    const all = [
      reviewPrompt(ANALYZER_PROMPTS[AGENT_NAMES.dataset]!.prompt, { agentName: AGENT_NAMES.dataset, language: japanese, digest: {}, findings: [] }),
      summaryPrompt({ language: japanese, agentResults: {}, crossFindings: [] }),
      advicePrompt({ language: japanese, recommendations: [], findings: [] }),
    ];
    for (const { messages: [system] } of all) {
      expect(system.content).toContain("Write every text value in Japanese (language code ja)");
      expect(system.content).toMatch(/Never drop, contradict or re-grade them/);
    }
  });
});
