import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { KnowledgePort } from "../../knowledge/port.js";
import type { LlmPort } from "../../llm/port.js";
import { NODE } from "../../nodes/names.js";
import { createGate, passThroughKnowledge } from "../support/analysis-deps.js";
import { postJson, type RunningService, startService } from "../support/http-service.js";
import { postForEvents, readSse } from "../support/sse.js";

const sampleText = (name: string) => readFileSync(new URL(`../fixtures/samples/${name}`, import.meta.url), "utf8");
const FULL = sampleText("full-image-classification.json");
const withFlags = (text: string, flags: Record<string, unknown>) => JSON.stringify({ ...JSON.parse(text), ...flags });
const ALL_NODES = Object.values(NODE).sort();

/** Knowledge that waits until the request's signal aborts, and records that it saw the abort. */
function knowledgeThatWaitsForAbort(aborted: AbortSignal[]): KnowledgePort {
  return {
    citeFindings: (_findings, signal) =>
      new Promise((_resolve, reject) => {
        signal?.addEventListener("abort", () => {
          aborted.push(signal);
          reject(signal.reason);
        });
      }),
    describe: () => [],
  };
}

describe("POST /v1/analyse with Accept: text/event-stream", () => {
  let svc: RunningService | undefined;
  afterEach(async () => {
    await svc?.close();
    svc = undefined;
  });

  it("streams node starts and ends in order, then a result equal to the JSON response", async () => {
    svc = await startService({ SERVICE_LOG_LEVEL: "silent" }, { knowledge: passThroughKnowledge() });
    const res = await postForEvents(`${svc.url}/v1/analyse`, FULL);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = await readSse(res);

    expect(events[0]!.event).toBe("run_started");
    expect(events[0]!.data.artifacts).toEqual(["dataset_artifacts", "checks_artifacts", "training_artifacts", "model_checkpoint_artifacts"]);
    expect(events.at(-1)!.event).toBe("result");
    expect(events.map((e) => Number(e.id))).toEqual(events.map((_, i) => i + 1));

    const started = events.filter((e) => e.event === "node_started").map((e) => e.data.node);
    const finished = events.filter((e) => e.event === "node_finished");
    expect([...started].sort()).toEqual(ALL_NODES);
    expect(finished.map((e) => e.data.node).sort()).toEqual(ALL_NODES);
    for (const node of ALL_NODES) {
      const start = events.findIndex((e) => e.event === "node_started" && e.data.node === node);
      const end = events.findIndex((e) => e.event === "node_finished" && e.data.node === node);
      expect(start).toBeLessThan(end);
    }
    // The graph's order: route, then the analyzers, then integrate, then advise.
    const endOf = (node: string) => events.findIndex((e) => e.event === "node_finished" && e.data.node === node);
    const startOf = (node: string) => events.findIndex((e) => e.event === "node_started" && e.data.node === node);
    expect(endOf("route")).toBeLessThan(startOf("analyzeDataset"));
    expect(Math.max(endOf("analyzeDataset"), endOf("analyzeTraining"), endOf("analyzeChecks"), endOf("analyzeCheckpoint"))).toBeLessThan(startOf("integrate"));
    expect(endOf("integrate")).toBeLessThan(startOf("advise"));

    const dataset = finished.find((e) => e.data.node === "analyzeDataset")!.data;
    expect(dataset).toMatchObject({ step: 2, outcome: "ok", error: null });
    expect(dataset.findings).toBe(events.at(-1)!.data.agent_results.DatasetArtifactsAnalyzer.findings.length);
    expect(dataset.duration_ms).toBeGreaterThanOrEqual(0);

    const json = await postJson(`${svc.url}/v1/analyse`, FULL);
    expect(json.status).toBe(200);
    expect(events.at(-1)!.data).toEqual(json.json);
  });

  it("returns the same spans in additional_outputs.trace as the node_finished events when trace is true", async () => {
    svc = await startService({ SERVICE_LOG_LEVEL: "silent" }, { knowledge: passThroughKnowledge() });
    const events = await readSse(await postForEvents(`${svc.url}/v1/analyse`, withFlags(FULL, { trace: true })));
    const result = events.at(-1)!.data;
    const spans = result.additional_outputs.trace.spans;
    expect(spans.map((s: { node: string }) => s.node).sort()).toEqual(ALL_NODES);
    expect(spans).toEqual(events.filter((e) => e.event === "node_finished").map((e) => e.data));

    const plain = await postJson(`${svc.url}/v1/analyse`, FULL);
    expect(plain.json.additional_outputs).not.toHaveProperty("trace");
    expect(plain.json.additional_outputs).not.toHaveProperty("curves");
  });

  it("forwards what nodes write to config.writer as progress events", async () => {
    const llm: LlmPort = {
      reviewAgent: async (req, config) => {
        config.writer?.({ node: req.agentName, progress: `reviewing ${req.findings.length} findings` });
        return { findings: req.findings, summary: null };
      },
      summarize: async () => "summary",
      advise: async (req) => ({ recommendations: req.recommendations, advice: "advice" }),
      startUsage: () => null,
      loadClient: async () => {},
      describe: () => ({ mode: "fake" }),
    };
    svc = await startService({ SERVICE_LOG_LEVEL: "silent" }, { knowledge: passThroughKnowledge(), llm });
    const events = await readSse(await postForEvents(`${svc.url}/v1/analyse`, FULL));
    const progress = events.filter((e) => e.event === "progress").map((e) => e.data);
    const datasetFindings = events.at(-1)!.data.agent_results.DatasetArtifactsAnalyzer.findings.length;
    expect(progress).toContainEqual({ node: "DatasetArtifactsAnalyzer", message: `reviewing ${datasetFindings} findings` });
    // A progress event arrives while its node runs: after the node started, before it finished.
    const at = events.findIndex((e) => e.event === "progress" && e.data.node === "DatasetArtifactsAnalyzer");
    expect(events.findIndex((e) => e.event === "node_started" && e.data.node === "analyzeDataset")).toBeLessThan(at);
    expect(events.findIndex((e) => e.event === "node_finished" && e.data.node === "analyzeDataset")).toBeGreaterThan(at);
  });

  it("answers a request that cannot be decoded with a plain 400 before any event", async () => {
    svc = await startService({ SERVICE_LOG_LEVEL: "silent" });
    const res = await postForEvents(`${svc.url}/v1/analyse`, sampleText("bad-request.json"));
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect((await res.json()).detail).toMatch(/^Error decoding request: training_artifacts/);
  });

  it("reports a failure after the stream started as an error event", async () => {
    // Analyzers turn the failure into partial results; strict mode (or a failing integrate) fails the run.
    const failing: KnowledgePort = { citeFindings: async () => Promise.reject(new Error("knowledge store offline")), describe: () => [] };
    svc = await startService({ SERVICE_LOG_LEVEL: "silent" }, { knowledge: failing });
    const events = await readSse(await postForEvents(`${svc.url}/v1/analyse`, withFlags(FULL, { strict: true })));
    expect(events.map((e) => e.event)).toContain("node_finished");
    const last = events.at(-1)!;
    expect(last.event).toBe("error");
    expect(last.data.code).toBe("ANALYSIS_FAILED");
    expect(last.data.detail).toMatch(/^Analysis failed: .*knowledge store offline/);
    expect(events.filter((e) => e.event === "result")).toEqual([]);
  });

  it("reports the request time-out as an error event", async () => {
    const gate = createGate();
    svc = await startService({ SERVICE_LOG_LEVEL: "silent", SERVICE_REQUEST_TIMEOUT_MS: "300" }, { knowledge: passThroughKnowledge(gate.wait) });
    const events = await readSse(await postForEvents(`${svc.url}/v1/analyse`, FULL));
    gate.open();
    expect(events[0]!.event).toBe("run_started");
    expect(events.at(-1)).toMatchObject({ event: "error", data: { code: "TIMEOUT" } });
  });

  it("stops the run when the client disconnects, and frees its admission slot", async () => {
    const aborted: AbortSignal[] = [];
    svc = await startService({ SERVICE_LOG_LEVEL: "silent" }, { knowledge: knowledgeThatWaitsForAbort(aborted) });
    const client = new AbortController();
    const res = await postForEvents(`${svc.url}/v1/analyse`, FULL, client.signal);
    await readSse(res, (e) => e.event === "node_started" && e.data.node === "analyzeDataset");
    expect(svc.service.admission.inFlight).toBe(1);
    client.abort();
    await expect.poll(() => aborted.length).toBeGreaterThan(0);
    await expect.poll(() => svc!.service.admission.inFlight).toBe(0);
  });

  it("applies admission control to streaming requests: over the limit is a 503 at once", async () => {
    const gate = createGate();
    svc = await startService({ SERVICE_LOG_LEVEL: "silent", SERVICE_MAX_CONCURRENT_ANALYSES: "1" }, { knowledge: passThroughKnowledge(gate.wait) });
    const first = await postForEvents(`${svc.url}/v1/analyse`, FULL);
    const firstEvents = readSse(first);
    await expect.poll(() => gate.waiting).toBeGreaterThan(0);
    const second = await postForEvents(`${svc.url}/v1/analyse`, FULL);
    expect(second.status).toBe(503);
    expect(second.headers.get("retry-after")).toBe("1");
    gate.open();
    expect((await firstEvents).at(-1)!.event).toBe("result");
  });
});
