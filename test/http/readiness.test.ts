import { afterEach, describe, expect, it } from "vitest";
import { closedPortUrl, type CountingServer, startCountingServer } from "../support/counting-server.js";
import { type FakeOpenAI, fakeModelEnv, modelAnswer, startFakeOpenAI } from "../support/fake-openai.js";
import { postJson, type RunningService, startService } from "../support/http-service.js";

const llmEnv = (baseURL: string) => fakeModelEnv(baseURL, { SERVICE_LLM_API_KEY: "sk-readiness-probe-key" });

describe("/readyz checks what the service depends on", () => {
  let svc: RunningService | undefined;
  let llm: FakeOpenAI | undefined;
  let tracking: CountingServer | undefined;
  afterEach(async () => {
    await svc?.close();
    await llm?.close();
    await tracking?.close();
    svc = llm = tracking = undefined;
  });
  const readyz = async () => {
    const res = await fetch(`${svc!.url}/readyz`);
    return { status: res.status, text: await res.text() };
  };

  it("ready with nothing to check in deterministic mode", async () => {
    svc = await startService();
    const { status, text } = await readyz();
    expect(status).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ status: "ready", failing: [], checks: [] });
  });

  it("ready when the LLM endpoint and the tracking server answer, with one probe each per interval", async () => {
    llm = await startFakeOpenAI(modelAnswer);
    tracking = await startCountingServer({ status: 200, body: {} });
    svc = await startService({ ...llmEnv(llm.baseURL), SERVICE_MLFLOW_TRACKING_URI: tracking.url, SERVICE_MLFLOW_TOKEN: "mlflow-readiness-token" });
    for (let i = 0; i < 3; i++) {
      const { status, text } = await readyz();
      expect(status).toBe(200);
      expect(JSON.parse(text)).toMatchObject({
        status: "ready",
        failing: [],
        checks: [
          { name: "llm", ok: true },
          { name: "mlflow", ok: true },
        ],
      });
    }
    expect(tracking.received).toEqual(["/version"]);
  });

  it("degraded, still 200, naming each unreachable dependency without its address, and analyses still answer", async () => {
    const nowhere = await closedPortUrl();
    svc = await startService({ ...llmEnv(`${nowhere}/v1`), SERVICE_MLFLOW_TRACKING_URI: nowhere, HOST: "0.0.0.0" });
    const { status, text } = await readyz();
    expect(status).toBe(200);
    const body = JSON.parse(text);
    expect(body).toMatchObject({ status: "degraded", failing: ["llm", "mlflow"] });
    expect(body.checks.map((c: { detail: string }) => c.detail)).toEqual(["unreachable (ECONNREFUSED)", "unreachable (ECONNREFUSED)"]);
    for (const hidden of [nowhere, "fake-model", "sk-readiness-probe-key"]) expect(text).not.toContain(hidden);
    const analysis = await postJson(`${svc.url}/v1/analyse`, { training_artifacts: { metrics: { loss: [1, 0.8, 0.6] } } });
    expect(analysis.status).toBe(200);
  });

  it("degraded when the tracking server refuses the credentials", async () => {
    tracking = await startCountingServer({ status: 401, body: { error_code: "UNAUTHENTICATED" } });
    svc = await startService({ SERVICE_MLFLOW_TRACKING_URI: tracking.url, SERVICE_MLFLOW_TOKEN: "wrong-token-value" });
    expect(JSON.parse((await readyz()).text)).toMatchObject({ status: "degraded", failing: ["mlflow"], checks: [{ detail: "refused the configured credentials (401)" }] });
  });
});
