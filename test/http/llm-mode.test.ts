import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, modelAnswer, startFakeOpenAI } from "../support/fake-openai.js";
import { postJson, type RunningService, startService } from "../support/http-service.js";

const body = readFileSync(new URL("../fixtures/samples/tabular-drift-evidently.json", import.meta.url), "utf8");

describe("the service with an OpenAI-compatible model configured", () => {
  let fake: FakeOpenAI;
  let svc: RunningService;
  beforeAll(async () => {
    fake = await startFakeOpenAI(modelAnswer);
    svc = await startService({
      SERVICE_LLM_MODEL_NAME: "fake-model",
      SERVICE_LLM_BASE_URL: fake.baseURL,
      SERVICE_LLM_API_KEY: "sk-http-secret",
      SERVICE_LLM_TEMPERATURE: "0.2",
      SERVICE_LLM_MAX_TOKENS: "2000",
      SERVICE_LLM_CACHE: "1",
      SERVICE_LLM_TRACK_USAGE: "1",
    });
  });
  afterAll(async () => {
    await svc.close();
    await fake.close();
  });

  it("reports LLM mode on /readyz without the key", async () => {
    const text = await (await fetch(`${svc.url}/readyz`)).text();
    expect(JSON.parse(text).llm).toMatchObject({ mode: "llm", modelName: "fake-model", temperature: 0.2, maxTokens: 2000, apiKey: "(set)" });
    expect(text).not.toContain("sk-http-secret");
  });

  it("answers an identical second analysis from the LLM cache and counts it on /metrics", async () => {
    const first = await postJson(`${svc.url}/v1/analyse`, body);
    expect(first.status).toBe(200);
    expect(first.json.error_messages).toEqual({});
    expect(first.json.summary).toEqual(expect.any(String));
    const calls = fake.requests.length;
    // Three analyzers (dataset, checks, training), the reasoning agent and the advisor: one call each.
    expect(calls).toBe(5);
    const second = await postJson(`${svc.url}/v1/analyse`, body);
    expect(second.status).toBe(200);
    expect(fake.requests.length).toBe(calls);
    expect(second.json.summary).toBe(first.json.summary);
    const metrics = await (await fetch(`${svc.url}/metrics`)).text();
    expect(metrics).toMatch(/llm_cache_hits_total 5\b/);
    expect(metrics).toMatch(/llm_cache_misses_total 5\b/);
    expect(svc.logs.join("\n")).not.toContain("sk-http-secret");
  });
});
