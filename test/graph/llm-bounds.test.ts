import { afterEach, describe, expect, it } from "vitest";
import { AGENT_NAMES } from "../../domain/result.js";
import { estimateTokens, PROMPT_TOKEN_BUDGET, promptTokens } from "../../llm/prompt-kit.js";
import { modelAnswer, requestAgent } from "../support/fake-openai.js";
import { type LlmHarness, sampleRequest, startLlmHarness } from "./llm-harness.js";

let harness: LlmHarness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

/** A 10^6-step history: decaying losses that turn (overfitting) with a deterministic ripple, and a log per 100 steps. */
function millionStepRequest(): Record<string, unknown> {
  const n = 1_000_000;
  const train = new Array<number>(n);
  const val = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const t = i / n;
    train[i] = Math.round((2.3 * Math.exp(-5 * t) + 0.02 + 0.01 * Math.sin(i * 0.37)) * 1e6) / 1e6;
    val[i] = Math.round((2.3 * Math.exp(-4 * t) + 0.3 + 0.6 * Math.max(0, t - 0.5) ** 2 + 0.01 * Math.cos(i * 0.61)) * 1e6) / 1e6;
  }
  const logs = Array.from({ length: n / 100 }, (_, k) => `step ${k * 100}: loss=${train[k * 100]}`);
  return { dataset_name: "million", language: "ko", training_artifacts: { metrics: { train_loss: train, val_loss: val }, logs } };
}

describe("LLM bounds", () => {
  it("keeps every prompt under the token budget for a 10^6-point training history", async () => {
    harness = await startLlmHarness(modelAnswer);
    const body = millionStepRequest();
    const response = await harness.analyze(body);
    const requests = harness.fake!.requests;
    expect(requests.map((r) => requestAgent(r.body)).sort()).toEqual([AGENT_NAMES.integrate, AGENT_NAMES.advise, AGENT_NAMES.training].sort());
    for (const r of requests) expect(promptTokens(r.body.messages), requestAgent(r.body)).toBeLessThanOrEqual(PROMPT_TOKEN_BUDGET);
    expect(estimateTokens(JSON.stringify(body.training_artifacts))).toBeGreaterThan(100 * PROMPT_TOKEN_BUDGET);
    expect(response.error_messages).toEqual({});
    expect(response.agent_results[AGENT_NAMES.training]!.summary).toMatch(/^\[ko\] /);
  }, 120_000); // parsing and detecting 2 × 10^6 points takes seconds on a shared core

  it("never multiplies retries: with every call failing, each agent costs exactly 1 + SERVICE_LLM_MAX_RETRIES requests", async () => {
    harness = await startLlmHarness(() => ({ status: 503 }), { env: { SERVICE_LLM_MAX_RETRIES: "1" } });
    const response = await harness.analyze(sampleRequest("full-image-classification.json", "en"));
    const perAgent = new Map<string, number>();
    for (const r of harness.fake!.requests) perAgent.set(requestAgent(r.body), (perAgent.get(requestAgent(r.body)) ?? 0) + 1);
    expect(Object.fromEntries(perAgent)).toEqual(Object.fromEntries(Object.values(AGENT_NAMES).map((a) => [a, 2])));
    expect(Object.keys(response.error_messages).sort()).toEqual(Object.values(AGENT_NAMES).sort());
    expect(response.summary).not.toBeNull();
  });
});
