import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createGate, passThroughKnowledge } from "../support/analysis-deps.js";
import { closedPortUrl, type CountingServer, startCountingServer } from "../support/counting-server.js";
import { postJson, type RunningService, startService } from "../support/http-service.js";

const body = readFileSync(new URL("../fixtures/samples/tabular-healthy.json", import.meta.url), "utf8");
const RUN = { mlflow: { run_id: "0123456789abcdef0123456789abcdef" } };

const logLines = (svc: RunningService) => svc.logs.map((line) => JSON.parse(line) as { level: string; msg: string; code?: string });

/** Every way the service answers 503 carries Retry-After, and is logged at warn, not error (normal back-pressure). */
describe("every 503 answer carries Retry-After", () => {
  let svc: RunningService | undefined;
  let tracking: CountingServer | undefined;
  afterEach(async () => {
    await svc?.close();
    await tracking?.close();
    svc = undefined;
    tracking = undefined;
  });

  it("analyses over SERVICE_MAX_CONCURRENT_ANALYSES (OVERLOADED)", async () => {
    const gate = createGate();
    svc = await startService({ SERVICE_MAX_CONCURRENT_ANALYSES: "1" }, { knowledge: passThroughKnowledge(gate.wait) });
    const held = postJson(`${svc.url}/v1/analyse`, body);
    await expect.poll(() => svc!.service.admission.inFlight, { timeout: 15_000 }).toBe(1);
    for (const route of ["/v1/analyse", "/v1/report"]) {
      const refused = await postJson(`${svc.url}${route}`, body);
      expect(refused.status).toBe(503);
      expect(refused.json.code).toBe("OVERLOADED");
      expect(refused.headers.get("retry-after")).toBe("1");
    }
    gate.open();
    expect((await held).status).toBe(200);
    expect(logLines(svc).filter((l) => l.code === "OVERLOADED").map((l) => l.level)).toEqual(["warn", "warn"]);
  });

  it("work requests and /readyz while draining for shutdown (SHUTTING_DOWN)", async () => {
    svc = await startService();
    expect(await svc.service.admission.drain(10)).toBe(true);
    for (const route of ["/v1/analyse", "/v1/report"]) {
      const refused = await postJson(`${svc.url}${route}`, body);
      expect(refused.status).toBe(503);
      expect(refused.json.code).toBe("SHUTTING_DOWN");
      expect(refused.headers.get("retry-after")).toBe("5");
    }
    const ready = await fetch(`${svc.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get("retry-after")).toBe("5");
  });

  it("a tracking server that refuses connections (MLFLOW_UNAVAILABLE)", async () => {
    const nowhere = await closedPortUrl();
    svc = await startService({ SERVICE_MLFLOW_TRACKING_URI: nowhere });
    const res = await postJson(`${svc.url}/v1/analyse`, RUN);
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({ code: "MLFLOW_UNAVAILABLE", detail: expect.stringContaining(`the tracking server ${nowhere} is unreachable`) });
    expect(res.headers.get("retry-after")).toBe("10");
    const levels = logLines(svc).map((l) => l.level);
    expect(levels).toContain("warn");
    expect(levels).not.toContain("error");
  });

  it("a tracking server that answers 503 after every retry (MLFLOW_UNAVAILABLE)", async () => {
    tracking = await startCountingServer({ status: 503, body: { error_code: "TEMPORARILY_UNAVAILABLE", message: "maintenance" } });
    svc = await startService({ SERVICE_MLFLOW_TRACKING_URI: tracking.url });
    const res = await postJson(`${svc.url}/v1/analyse`, RUN);
    expect(res.status).toBe(503);
    expect(res.json.code).toBe("MLFLOW_UNAVAILABLE");
    expect(res.json.detail).toMatch(/failed with 503: maintenance after 3 attempt\(s\)/);
    expect(res.headers.get("retry-after")).toBe("10");
    expect(tracking.received.filter((path) => path.startsWith("/api/2.0/mlflow/runs/get"))).toHaveLength(3);
  });
});
