import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGate, passThroughKnowledge } from "../support/analysis-deps.js";
import { LegacyClientResponse } from "../support/diagnosis.js";
import { postJson, type RunningService, startService } from "../support/http-service.js";

const sampleText = (name: string) => readFileSync(new URL(`../fixtures/samples/${name}`, import.meta.url), "utf8");
const sample = (name: string) => JSON.parse(sampleText(name));

describe("HTTP API", () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ SERVICE_LLM_API_KEY: "sk-never-logged" });
  });
  afterAll(() => svc.close());

  it("answers liveness, readiness (with LLM mode), OpenAPI and metrics", async () => {
    expect(await (await fetch(`${svc.url}/healthz`)).json()).toEqual({ status: "ok" });
    const ready = await (await fetch(`${svc.url}/readyz`)).json();
    expect(ready).toMatchObject({ status: "ready", llm: { mode: "deterministic" }, max_in_flight: 10 });
    const openapi = await (await fetch(`${svc.url}/openapi.json`)).json();
    expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(["/v1/analyse", "/v1/analyze", "/healthz", "/readyz", "/metrics", "/v1/report", "/v1/graph", "/v1/knowledge", "/debug"]));
    expect(openapi.paths["/v1/analyse"].post.requestBody.content["application/json"].schema.properties).toHaveProperty("training_artifacts");
    const metrics = await (await fetch(`${svc.url}/metrics`)).text();
    expect(metrics).toMatch(/http_requests_total\{method="GET",route="\/healthz",status="200"\} 1/);
    expect(metrics).toMatch(/analyses_in_flight 0/);
  });

  it("analyzes the sample request into the spec §2.2 response", async () => {
    const res = await postJson(`${svc.url}/v1/analyse`, sampleText("full-image-classification.json"));
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(["additional_outputs", "agent_results", "dataset_name", "error_messages", "summary"]);
    expect(res.json.dataset_name).toBe("shelf-products-12");
    expect(Object.keys(res.json.agent_results)).toEqual(expect.arrayContaining(["DatasetArtifactsAnalyzer", "CrossArtifactReasoningAgent", "OptimizationAdvisorAgent"]));
    const dataset = res.json.agent_results.DatasetArtifactsAnalyzer;
    expect(dataset.agent_name).toBe("DatasetArtifactsAnalyzer");
    expect(dataset.findings.map((f: any) => f.id)).toContain("dataset.class_imbalance");
    expect(res.json.additional_outputs.llm.mode).toBe("deterministic");
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("serves /v1/analyze as the same route", async () => {
    const a = await postJson(`${svc.url}/v1/analyse`, sampleText("tabular-healthy.json"));
    const b = await postJson(`${svc.url}/v1/analyze`, sampleText("tabular-healthy.json"));
    expect(b.status).toBe(200);
    expect(b.json).toEqual(a.json);
  });

  it("answers the original Python client's request with a body its response model parses", async () => {
    const res = await postJson(`${svc.url}/v1/analyse`, sampleText("legacy-python-client.json"));
    expect(res.status).toBe(200);
    const parsed = LegacyClientResponse.safeParse(res.json);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(res.json.dataset_name).toBe("tomato-leaf-field");
  });

  it.each([
    ["the bad-request sample", sample("bad-request.json"), "Error decoding request: training_artifacts: expected object, received string"],
    ["invalid JSON", '{"training_artifacts": {', /^Error decoding request: \(body\): invalid JSON/],
    ["an empty body", "", "Error decoding request: (body): empty body, expected a JSON object"],
    ["nothing to analyze", { dataset_name: "x" }, /^Error decoding request: \(body\): nothing to analyze/],
    ["a nested wrong type", { checks_artifacts: { reports: "x" } }, /^Error decoding request: checks_artifacts\.reports: expected array/],
  ])("answers 400 naming the problem for %s", async (_what, body, detail) => {
    const res = await postJson(`${svc.url}/v1/analyse`, body as never);
    expect(res.status).toBe(400);
    if (typeof detail === "string") expect(res.json.detail).toBe(detail);
    else expect(res.json.detail).toMatch(detail);
    expect(res.json.code).toBe("BAD_REQUEST");
  });

  it("accepts bare NaN in the body (Python-written JSON)", async () => {
    const res = await postJson(`${svc.url}/v1/analyse`, '{"training_artifacts": {"metrics": {"train_loss": [2.0, 1.0, NaN, NaN]}}}');
    expect(res.status).toBe(200);
    expect(res.json.agent_results.TrainingArtifactsAnalyzer.findings[0].id).toBe("training.nonfinite_loss");
  });

  it("answers 404 with JSON detail for an unknown route", async () => {
    const res = await fetch(`${svc.url}/v2/nothing`);
    expect(res.status).toBe(404);
    expect((await res.json()).detail).toBe("no route for GET /v2/nothing");
  });

  it("logs JSON lines with the request id and never the API key", async () => {
    const res = await postJson(`${svc.url}/v1/analyse`, sampleText("tabular-healthy.json"), { "x-request-id": "trace-me-42" });
    expect(res.headers.get("x-request-id")).toBe("trace-me-42");
    const lines = svc.logs.map((l) => JSON.parse(l));
    const mine = lines.filter((l) => l.request_id === "trace-me-42");
    expect(mine.map((l) => l.msg)).toEqual(expect.arrayContaining(["analysis started", "analysis finished", "request"]));
    expect(svc.logs.join("\n")).not.toContain("sk-never-logged");
  });
});

describe("HTTP limits", () => {
  it("answers 413 with a clear message past SERVICE_MAX_BODY_BYTES", async () => {
    const svc = await startService({ SERVICE_MAX_BODY_BYTES: "2048" });
    try {
      const res = await postJson(`${svc.url}/v1/analyse`, sampleText("full-image-classification.json"));
      expect(res.status).toBe(413);
      expect(res.json.detail).toBe("request body exceeds the limit of 2048 bytes (SERVICE_MAX_BODY_BYTES)");
    } finally {
      await svc.close();
    }
  });

  it("answers 500 with the failure when strict is set and an agent fails", async () => {
    let calls = 0;
    const knowledge = passThroughKnowledge(async () => {
      if (calls++ === 0) throw new Error("index offline");
    });
    const svc = await startService({}, { knowledge });
    try {
      const res = await postJson(`${svc.url}/v1/analyse`, { ...sample("full-image-classification.json"), strict: true });
      expect(res.status).toBe(500);
      expect(res.json.detail).toMatch(/^Analysis failed: StrictModeError: strict mode: .*failed: index offline/);
      const lenient = await postJson(`${svc.url}/v1/analyse`, sample("full-image-classification.json"));
      expect(lenient.status).toBe(200);
    } finally {
      await svc.close();
    }
  });

  it("holds 10 analyses open, refuses the 11th with 503 and Retry-After at once, then serves again", async () => {
    const gate = createGate();
    // One test client sends all eleven: its own per-client cap must not be what refuses them.
    const svc = await startService({ SERVICE_MAX_CONCURRENT_PER_CLIENT: "20" }, { knowledge: passThroughKnowledge(gate.wait) });
    try {
      const body = sampleText("tabular-healthy.json");
      const open = Array.from({ length: 10 }, () => postJson(`${svc.url}/v1/analyse`, body));
      while (svc.service.admission.inFlight < 10) await new Promise((r) => setTimeout(r, 5));
      const refused = await postJson(`${svc.url}/v1/analyse`, body);
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(refused.json.code).toBe("OVERLOADED");
      gate.open();
      const done = await Promise.all(open);
      expect(done.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect((await postJson(`${svc.url}/v1/analyse`, body)).status).toBe(200);
    } finally {
      await svc.close();
    }
  });

  it("answers 504 and stops the run past SERVICE_REQUEST_TIMEOUT_MS", async () => {
    const gate = createGate();
    const svc = await startService({ SERVICE_REQUEST_TIMEOUT_MS: "300" }, { knowledge: passThroughKnowledge(gate.wait) });
    try {
      const res = await postJson(`${svc.url}/v1/analyse`, sampleText("tabular-healthy.json"));
      expect(res.status).toBe(504);
      expect(res.json.detail).toBe("the analysis did not finish within 300 ms (SERVICE_REQUEST_TIMEOUT_MS); it was stopped");
      expect(svc.service.admission.inFlight).toBe(0);
    } finally {
      gate.open();
      await svc.close();
    }
  });

  it("refuses new analyses with 503 while draining for shutdown and reports it on /readyz", async () => {
    const svc = await startService();
    try {
      expect(await svc.service.admission.drain(10)).toBe(true);
      const res = await postJson(`${svc.url}/v1/analyse`, sampleText("tabular-healthy.json"));
      expect(res.status).toBe(503);
      expect(res.json.code).toBe("SHUTTING_DOWN");
      expect((await fetch(`${svc.url}/readyz`)).status).toBe(503);
    } finally {
      await svc.close();
    }
  });
});
