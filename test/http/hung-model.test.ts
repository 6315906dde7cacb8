import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_NAMES } from "../../domain/result.js";
import { type FakeOpenAI, fakeModelEnv, modelAnswer, requestAgent, startFakeOpenAI } from "../support/fake-openai.js";
import { postJson, type RunningService, startService } from "../support/http-service.js";

const FULL = readFileSync(new URL("../fixtures/samples/full-image-classification.json", import.meta.url), "utf8");
const SMALL = readFileSync(new URL("../fixtures/samples/tabular-healthy.json", import.meta.url), "utf8");
const ANALYZERS = [AGENT_NAMES.dataset, AGENT_NAMES.checks, AGENT_NAMES.training, AGENT_NAMES.checkpoint];

const findingIds = (body: any, agent: string): string[] => body.agent_results[agent].findings.map((f: { id: string }) => f.id).sort();

/**
 * "Works with no LLM" must mean "works with a broken LLM" (issue #22): a model endpoint that accepts every call
 * and never answers costs the model's budget per step, never the detectors' findings or the summary.
 *
 * The endpoint answers at first and then hangs, as production endpoints do: the port loads its model client on its
 * first call (llm/openai-port.ts), which takes seconds on a loaded machine, and a cold client would spend the
 * scaled-down model budget before any call left the process, so the model steps would fail without asking it.
 */
describe("a model endpoint that never answers", () => {
  let hung: FakeOpenAI;
  let svc: RunningService;
  let deterministic: RunningService;
  let hanging = false;
  let askedBeforeHang = 0;
  beforeAll(async () => {
    hung = await startFakeOpenAI((body) => (hanging ? { delayMs: 600_000, content: "{}" } : modelAnswer(body)));
    // A model step's budget is 500 ms × (1 + 1 retry) = 1 s, and a hung step ends there, so these set the test's
    // length. The agent time-out (5 s) is far above the step plus the detectors on a loaded machine, so every
    // analyzer reaches its model step with its whole second; the request's (30 s) leaves each analyzer (3 at a time,
    // SERVICE_ANALYZER_WORKERS) its full agent time and integrate and advise their full model budget after them.
    svc = await startService(
      fakeModelEnv(hung.baseURL, {
        SERVICE_LOG_LEVEL: "silent",
        SERVICE_LLM_MAX_TOKENS: "2000",
        SERVICE_LLM_TIMEOUT_MS: "500",
        SERVICE_LLM_MAX_RETRIES: "1",
        SERVICE_AGENT_TIMEOUT_MS: "5000",
        SERVICE_REQUEST_TIMEOUT_MS: "30000",
      }),
    );
    deterministic = await startService({ SERVICE_LOG_LEVEL: "silent" });
    // Until one analysis is answered by the model in full (under load the first one or two end before its client
    // has loaded), then the endpoint hangs.
    let warm = await postJson(`${svc.url}/v1/analyse`, SMALL);
    for (let tries = 1; tries < 10 && warm.status === 200 && Object.keys(warm.json.error_messages).length > 0; tries++) {
      warm = await postJson(`${svc.url}/v1/analyse`, SMALL);
    }
    expect(warm.status).toBe(200);
    expect(warm.json.error_messages).toEqual({});
    hanging = true;
    askedBeforeHang = hung.requests.length;
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
      // The whole model budget, 500 ms × 2: the agent's time-out left the step all of it.
      expect(body.error_messages[agent], agent).toMatch(/^language model review failed, detector findings kept: .*timed out after 1000 ms$/);
    }
    expect(body.error_messages[AGENT_NAMES.integrate]).toMatch(/^language model summary failed, templated summary kept: /);
    expect(body.error_messages[AGENT_NAMES.advise]).toMatch(/^language model advice failed, templated advice kept: /);
    // Each of the six model steps asked the hung model, at most once per attempt (1 + SERVICE_LLM_MAX_RETRIES) …
    const asked = hung.requests.slice(askedBeforeHang).map((r) => requestAgent(r.body));
    expect([...new Set(asked)].sort()).toEqual(Object.values(AGENT_NAMES).sort());
    for (const agent of Object.values(AGENT_NAMES)) expect(asked.filter((a) => a === agent).length, agent).toBeLessThanOrEqual(2);
    // … and every one of those calls was given up on, none left waiting.
    await expect.poll(() => hung.abandoned, { timeout: 10_000 }).toBe(asked.length);
  });
});
