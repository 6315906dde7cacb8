import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { type CountingServer, startCountingServer } from "../support/counting-server.js";
import { type FakeOpenAI, fakeModelEnv, startFakeOpenAI } from "../support/fake-openai.js";
import { postJson, type RunningService, startService } from "../support/http-service.js";

const body = JSON.parse(readFileSync(new URL("../fixtures/samples/tabular-drift-evidently.json", import.meta.url), "utf8"));
const LLM_KEY = "sk-echoed-by-the-gateway-7f3a";

/** A verbose gateway: every model call fails with an error body quoting the Authorization header it received. */
const echoingGateway = () => startFakeOpenAI(() => ({ status: 400, echoAuthorization: true }));

describe("configured secrets echoed by an upstream never leave the service", () => {
  let svc: RunningService | undefined;
  let llm: FakeOpenAI | undefined;
  let tracking: CountingServer | undefined;
  afterEach(async () => {
    await svc?.close();
    await llm?.close();
    await tracking?.close();
    svc = llm = tracking = undefined;
  });

  const startWithLlm = async () => {
    llm = await echoingGateway();
    svc = await startService(fakeModelEnv(llm.baseURL, { SERVICE_LLM_API_KEY: LLM_KEY }));
    return svc;
  };

  it("the LLM key, in error_messages, the SSE stream, the HTML report, a strict 500 and the log", async () => {
    const svc = await startWithLlm();
    const res = await postJson(`${svc.url}/v1/analyse`, body);
    expect(res.status).toBe(200);
    // The gateway did echo the key: the redacted form of its message is there instead.
    expect(llm!.requests[0]!.authorization).toBe(`Bearer ${LLM_KEY}`);
    expect(Object.values(res.json.error_messages).join("\n")).toContain("Authorization: Bearer [redacted]");

    const stream = await fetch(`${svc.url}/v1/analyse`, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream" }, body: JSON.stringify(body) });
    const events = await stream.text();
    expect(events).toContain("[redacted]");

    const report = await (await fetch(`${svc.url}/v1/report`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).text();
    const strict = await postJson(`${svc.url}/v1/analyse`, { ...body, strict: true });
    expect(strict.status).toBe(500);
    expect(strict.json.detail).toContain("[redacted]");

    for (const text of [res.text, events, report, strict.text, svc.logs.join("\n")]) expect(text).not.toContain(LLM_KEY);
    expect(svc.logs.some((line) => line.includes("[redacted]"))).toBe(true);
  });

  it("the MLflow token and Basic credentials a tracking server quotes back", async () => {
    const basic = Buffer.from("alice:mlflow-password-91").toString("base64");
    tracking = await startCountingServer({ status: 401, body: (headers) => ({ error_code: "UNAUTHENTICATED", message: `rejected ${headers.authorization}` }) });
    const credentials: Array<Record<string, string>> = [{ SERVICE_MLFLOW_TOKEN: "mlflow-token-5c2e" }, { SERVICE_MLFLOW_USERNAME: "alice", SERVICE_MLFLOW_PASSWORD: "mlflow-password-91" }];
    for (const env of credentials) {
      svc = await startService({ SERVICE_MLFLOW_TRACKING_URI: tracking.url, ...env });
      const res = await postJson(`${svc.url}/v1/analyse`, { mlflow: { run_id: "0123456789abcdef0123456789abcdef" } });
      expect(res.status).toBe(502);
      expect(res.json.detail).toContain("rejected ");
      expect(res.json.detail).toContain("[redacted]");
      for (const text of [res.text, svc.logs.join("\n")]) {
        for (const secret of ["mlflow-token-5c2e", "mlflow-password-91", basic]) expect(text).not.toContain(secret);
      }
      await svc.close();
      svc = undefined;
    }
  });
});
