import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, modelAnswer, requestInput, startFakeOpenAI } from "../support/fake-openai.js";
import { postJson, type RunningService, startService } from "../support/http-service.js";
import { lrGrid, syntheticRun } from "../support/synthetic-sweep.js";

/** POST /v1/compare with a model configured: the model narrates the cross-run findings; the findings stay the detectors'. */
describe("POST /v1/compare with an OpenAI-compatible model", () => {
  let fake: FakeOpenAI;
  let llm: RunningService;
  let offline: RunningService;
  const env = { SERVICE_LLM_MODEL_NAME: "fake-model", SERVICE_LLM_TEMPERATURE: "0.2", SERVICE_LLM_MAX_TOKENS: "2000" };
  const body = { runs: lrGrid([1e-4, 3e-4, 1e-3], [1, 2], 3e-2).map((s) => syntheticRun(s)) };

  beforeAll(async () => {
    fake = await startFakeOpenAI(modelAnswer);
    llm = await startService({ ...env, SERVICE_LLM_BASE_URL: fake.baseURL, SERVICE_LLM_API_KEY: "sk-compare" });
    offline = await startService();
  });
  afterAll(async () => {
    await llm.close();
    await offline.close();
    await fake.close();
  });

  it("asks the model for the comparison's summary once, keeps the detectors' findings, and says which model wrote it", async () => {
    const [withModel, without] = await Promise.all([postJson(`${llm.url}/v1/compare`, body), postJson(`${offline.url}/v1/compare`, body)]);
    expect(withModel.status).toBe(200);
    expect(withModel.json.error_messages).toEqual({});
    expect(withModel.json.findings.map((f: { id: string }) => f.id)).toEqual(without.json.findings.map((f: { id: string }) => f.id));
    expect(withModel.json.summary).toEqual(expect.any(String));
    expect(withModel.json.summary).not.toBe(without.json.summary);
    // Every run's own analysis asks the model as usual; the comparison's narration is the one call about the experiment agent.
    expect(fake.requests.filter((r) => JSON.stringify(requestInput(r.body)).includes("ExperimentReasoningAgent"))).toHaveLength(1);
    expect(withModel.json.additional_outputs.llm).toMatchObject({ mode: "llm", model: "fake-model" });
    expect(without.json.additional_outputs.llm.mode).toBe("deterministic");
  });
});
