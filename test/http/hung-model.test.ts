import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_NAMES } from "../../domain/result.js";
import { type FakeOpenAI, fakeModelEnv, startFakeOpenAI } from "../support/fake-openai.js";
import { postJson, type RunningService, startService } from "../support/http-service.js";

const FULL = readFileSync(new URL("../fixtures/samples/full-image-classification.json", import.meta.url), "utf8");
const ANALYZERS = [AGENT_NAMES.dataset, AGENT_NAMES.checks, AGENT_NAMES.training, AGENT_NAMES.checkpoint];

const findingIds = (body: any, agent: string): string[] => body.agent_results[agent].findings.map((f: { id: string }) => f.id).sort();

/**
 * "Works with no LLM" must mean "works with a broken LLM" (issue #22): a model endpoint that accepts every call
 * and never answers costs the model's budget per step, never the detectors' findings or the summary.
 */
describe("a model endpoint that never answers", () => {
  let hung: FakeOpenAI;
  let svc: RunningService;
  let deterministic: RunningService;
  beforeAll(async () => {
    hung = await startFakeOpenAI(() => ({ delayMs: 600_000, content: "{}" }));
    // Budgets in the default proportions, scaled down: 500 ms × 2 attempts per model step < the 1500 ms agent time-out.
    svc = await startService(
      fakeModelEnv(hung.baseURL, {
        SERVICE_LOG_LEVEL: "silent",
        SERVICE_LLM_MAX_TOKENS: "2000",
        SERVICE_LLM_TIMEOUT_MS: "500",
        SERVICE_LLM_MAX_RETRIES: "1",
        SERVICE_AGENT_TIMEOUT_MS: "1500",
        SERVICE_REQUEST_TIMEOUT_MS: "6000",
      }),
    );
    deterministic = await startService({ SERVICE_LOG_LEVEL: "silent" });
  });
  afterAll(async () => {
    await svc?.close();
    await deterministic?.close();
    await hung?.close();
  });

  it("keeps every detector finding, all six agents and a summary, and says which model steps failed", async () => {
    const [expected, answer] = await Promise.all([postJson(`${deterministic.url}/v1/analyse`, FULL), postJson(`${svc.url}/v1/analyse`, FULL)]);
    expect(expected.status).toBe(200);
    expect(answer.status).toBe(200);
    const body = answer.json;
    expect(Object.keys(body.agent_results).sort()).toEqual(Object.values(AGENT_NAMES).sort());
    for (const agent of [...ANALYZERS, AGENT_NAMES.integrate]) {
      expect(findingIds(body, agent), agent).toEqual(findingIds(expected.json, agent));
    }
    expect(ANALYZERS.reduce((n, agent) => n + findingIds(body, agent).length, 0)).toBeGreaterThan(0);
    expect(body.summary).toEqual(expect.any(String));
    expect(body.additional_outputs.recommendations.length).toBe(expected.json.additional_outputs.recommendations.length);
    for (const agent of ANALYZERS) {
      expect(body.error_messages[agent], agent).toMatch(/^language model review failed, detector findings kept: .*timed out after \d+ ms$/);
    }
    expect(body.error_messages[AGENT_NAMES.integrate]).toMatch(/^language model summary failed, templated summary kept: /);
    expect(body.error_messages[AGENT_NAMES.advise]).toMatch(/^language model advice failed, templated advice kept: /);
    // Every model call was given up on, none left waiting.
    expect(hung.requests.length).toBeGreaterThanOrEqual(ANALYZERS.length + 2);
    await expect.poll(() => hung.abandoned).toBe(hung.requests.length);
  });
});
