import { afterEach, describe, expect, it, vi } from "vitest";
import type { Language } from "../../../artifacts/language.js";
import { createLogger } from "../../../config/logger.js";
import { AGENT_NAMES, type Finding, type Recommendation } from "../../../domain/result.js";
import type { LlmConfig } from "../../../llm/config.js";
import { EvidenceCache } from "../../../llm/grounding/evidence-cache.js";
import { httpFetch } from "../../../llm/http-fetch.js";
import { createLlmPort, type LlmPortOptions, OpenAiLlmPort } from "../../../llm/openai-port.js";
import { detectorFinding } from "../../../nodes/findings.js";
import { type FakeOpenAI, type FakeScript, fakeUsage, modelAnswer, requestAgent, startFakeOpenAI } from "../../support/fake-openai.js";

const french: Language = { code: "fr", name: "French" };
const imbalance: Finding = detectorFinding({
  id: "dataset.class_imbalance",
  title: "Classes are strongly imbalanced",
  description: "baby_care has 100 examples against 2500 for beverages.",
  evidence: [{ rule_id: "DS-01", artifact: "dataset_artifacts.statistics", text: "minority/majority = 0.040", observed: 0.04, threshold: 0.1 }],
  severity: "medium",
  confidence: 0.9,
  recommendation: { action: "Use class weights.", rationale: "Accuracy hides minority classes.", category: "data", effort: "low" },
});
const plan: Recommendation[] = [
  { action: "Use class weights.", rationale: "r1", confidence: 0.9, category: "data", effort: "low", finding_ids: ["dataset.class_imbalance"], citations: ["k16"], source: "detector" },
  { action: "Enable early stopping.", rationale: "r2", confidence: 0.8, category: "training", effort: "low", finding_ids: ["training.overfitting"], citations: [], source: "detector" },
];

let fake: FakeOpenAI | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function portOn(script: FakeScript, over: Partial<LlmConfig> = {}, options: Partial<LlmPortOptions> = {}) {
  fake = await startFakeOpenAI(script);
  const config: LlmConfig = { apiKey: "sk-test", baseUrl: fake.baseURL, modelName: "fake-model", temperature: 0.7, maxTokens: 8000, cache: true, trackUsage: true, ...over };
  return createLlmPort(config, { timeoutMs: 5000, maxRetries: 0, logger: createLogger("silent"), ...options })!;
}

describe("OpenAiLlmPort", () => {
  it("is null without a model name (deterministic mode)", () => {
    expect(createLlmPort(null, { timeoutMs: 1000, maxRetries: 0, logger: createLogger("silent") })).toBeNull();
  });

  it("reviews an agent's findings in the requested language, keeping the detector's evidence", async () => {
    const port = await portOn(modelAnswer);
    const review = await port.reviewAgent({ agentName: AGENT_NAMES.dataset, language: french, digest: { rows: 2600 }, findings: [imbalance] }, {});
    const input = JSON.parse(fake!.requests[0]!.body.messages[1]!.content) as Record<string, unknown>;
    expect(input).toMatchObject({ agent: AGENT_NAMES.dataset, language: french, digest: { rows: 2600 } });
    expect(review.summary).toBe(`[fr] ${AGENT_NAMES.dataset}: ce que disent les preuves sur cet artefact, en quelques mots.`);
    expect(review.findings[0]).toMatchObject({
      id: imbalance.id,
      description: "[fr] dataset.class_imbalance: les preuves du détecteur tiennent et expliquent le problème.",
      evidence: imbalance.evidence,
      severity: "medium",
      source: "detector",
      recommendation: { action: "[fr] dataset.class_imbalance: agir sur ce que le détecteur a trouvé avant la prochaine exécution.", category: "data" },
    });
    expect(review.findings[1]).toMatchObject({ id: "dataset.llm.second_look", source: "llm", severity: "low" });
  });

  it("refuses an agent it has no prompt for", async () => {
    const port = await portOn(modelAnswer);
    await expect(port.reviewAgent({ agentName: "Nobody", language: french, digest: null, findings: [] }, {})).rejects.toThrow(/no review prompt/);
    expect(fake!.requests).toHaveLength(0);
  });

  it("writes the summary and rewords the plan in place, links untouched", async () => {
    const port = await portOn((body) => {
      if (requestAgent(body) !== AGENT_NAMES.advise) return modelAnswer(body);
      // Reword only priority 2, and mention a priority that does not exist.
      const content = JSON.stringify({ advice: "[fr] plan", recommendations: [{ priority: 2, action: "[fr] arrêt précoce", rationale: "[fr] garde le meilleur" }, { priority: 9, action: "x", rationale: "y" }] });
      return { content };
    });
    const summary = await port.summarize({ language: french, agentResults: {}, crossFindings: [imbalance] }, {});
    expect(summary).toMatch(/^\[fr\] cross-artifact summary/);
    const out = await port.advise({ language: french, recommendations: plan, findings: [imbalance] }, {});
    expect(out.advice).toBe("[fr] plan");
    expect(out.recommendations).toEqual([plan[0], { ...plan[1], action: "[fr] arrêt précoce", rationale: "[fr] garde le meilleur" }]);
  });

  it("counts tokens per agent and reports a cached answer's original tokens apart", async () => {
    const port = await portOn(modelAnswer);
    const usage = port.startUsage()!;
    const req = { agentName: AGENT_NAMES.dataset, language: french, digest: {}, findings: [imbalance] };
    await port.reviewAgent(req, { callbacks: [usage] });
    await port.reviewAgent(req, { callbacks: [usage] });
    await port.summarize({ language: french, agentResults: {}, crossFindings: [] }, { callbacks: [usage] });
    expect(fake!.requests).toHaveLength(2);
    const [review, summary] = fake!.requests.map((r) => fakeUsage(r.body, modelAnswer(r.body).content!));
    const report = usage.report();
    expect(report.by_agent[AGENT_NAMES.dataset]).toEqual({
      calls: 2,
      cache_hits: 1,
      failed_calls: 0,
      input_tokens: review!.prompt_tokens,
      output_tokens: review!.completion_tokens,
      total_tokens: review!.total_tokens,
      cached_input_tokens: review!.prompt_tokens,
      cached_output_tokens: review!.completion_tokens,
      cached_total_tokens: review!.total_tokens,
    });
    expect(report.total).toMatchObject({ calls: 3, cache_hits: 1, total_tokens: review!.total_tokens + summary!.total_tokens });
    expect((port as OpenAiLlmPort).cache!.hits).toBe(1);
  });

  it("counts a failed call, and keeps no usage collector when track_usage is off", async () => {
    const port = await portOn(() => ({ status: 503 }));
    const usage = port.startUsage()!;
    await expect(port.summarize({ language: french, agentResults: {}, crossFindings: [] }, { callbacks: [usage] })).rejects.toMatchObject({ status: 503 });
    expect(usage.report().by_agent[AGENT_NAMES.integrate]).toMatchObject({ calls: 0, failed_calls: 1, total_tokens: 0 });
    const quiet = await portOn(modelAnswer, { trackUsage: false, cache: false });
    expect(quiet.startUsage()).toBeNull();
    expect((quiet as OpenAiLlmPort).cache).toBeNull();
  });

  it("builds a prompt's grounding evidence while the model answers, not after the answer", async () => {
    const events: string[] = [];
    const of = EvidenceCache.prototype.of;
    const spy = vi.spyOn(EvidenceCache.prototype, "of").mockImplementation(function (this: EvidenceCache, prompt) {
      events.push("evidence");
      return of.call(this, prompt);
    });
    const answered: typeof fetch = async (input, init) => {
      events.push("sent");
      const res = await httpFetch(input, init);
      events.push("answered");
      return res;
    };
    try {
      const port = await portOn((body) => ({ ...modelAnswer(body), delayMs: 100 }), { cache: false }, { fetch: answered });
      const review = await port.reviewAgent({ agentName: AGENT_NAMES.dataset, language: french, digest: { rows: 2600 }, findings: [imbalance] }, {});
      expect(review.findings[0]).toMatchObject({ id: imbalance.id, evidence: imbalance.evidence });
      expect(events).toEqual(["sent", "evidence", "answered"]);
    } finally {
      spy.mockRestore();
    }
  });

  it("describes the model without the key", async () => {
    const port = await portOn(modelAnswer);
    expect(port.describe(french)).toEqual({ mode: "llm", model: "fake-model", language: "fr", cache: true, track_usage: true, structured_output: "auto (json_schema)" });
    expect(JSON.stringify(port.describe(french))).not.toContain("sk-test");
  });
});

describe("LLM logging set-up (spec §2.3 rule 4)", () => {
  it("prints a failed set-up and goes on without it", async () => {
    const printed: string[] = [];
    const port = await portOn(modelAnswer, {}, {
      loggingSetup: () => {
        throw new Error("handler registry unavailable");
      },
      print: (line) => printed.push(line),
    });
    expect(printed).toEqual(["LLM logging set-up failed, continuing without it: handler registry unavailable"]);
    await expect(port.summarize({ language: french, agentResults: {}, crossFindings: [] }, {})).resolves.toMatch(/\[fr\]/);
  });

  it("logs each call with agent and tokens, never the prompt", async () => {
    const lines: string[] = [];
    const logger = createLogger("debug", {}, (line) => lines.push(line));
    const port = await portOn(modelAnswer, {}, { logger });
    await port.reviewAgent({ agentName: AGENT_NAMES.dataset, language: french, digest: { secret_column: 1 }, findings: [imbalance] }, {});
    const calls = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === "llm call");
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ level: "debug", component: "llm", agent: AGENT_NAMES.dataset, cached: false });
    expect((calls[0]!.usage as { input: number }).input).toBeGreaterThan(0);
    expect(lines.join("\n")).not.toContain("secret_column");
  });
});
