import { readFileSync } from "node:fs";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { describe, expect, it } from "vitest";
import { decodeAnalysisRequest } from "../../artifacts/request.js";
import { parseTolerantJson } from "../../artifacts/tolerant-json.js";
import { loadServiceSettings } from "../../config/env.js";
import { ANALYSIS_NODES, buildAnalysisGraph } from "../../graph/build.js";
import { Deadline } from "../../graph/deadline.js";
import { createLimiter } from "../../graph/limiter.js";
import { runAnalysis, StrictModeError } from "../../graph/run.js";
import { createGate, passThroughKnowledge, testDeps } from "../support/analysis-deps.js";

/** Counts node runs and the peak number of analyzers running at once, from LangChain callbacks. */
class NodeCounter extends BaseCallbackHandler {
  name = "node-counter";
  runs: Record<string, number> = {};
  private open = new Map<string, string>();
  running = 0;
  peak = 0;
  override handleChainStart(_c: unknown, _i: unknown, runId: string, _p?: string, _t?: string[], meta?: Record<string, unknown>, _rt?: string, name?: string) {
    const node = meta?.langgraph_node as string | undefined;
    if (!node || name !== node || node === "__start__") return;
    this.runs[node] = (this.runs[node] ?? 0) + 1;
    this.open.set(runId, node);
    if (node.startsWith("analyze")) this.peak = Math.max(this.peak, ++this.running);
  }
  override handleChainEnd(_o: unknown, runId: string) {
    const node = this.open.get(runId);
    if (node?.startsWith("analyze")) this.running--;
    this.open.delete(runId);
  }
}

const sample = (name: string) => parseTolerantJson(readFileSync(new URL(`../fixtures/samples/${name}`, import.meta.url), "utf8"));
/** Knowledge whose first call fails, as a dependency fault would. */
const failingOnce = () => {
  let calls = 0;
  return passThroughKnowledge(async () => {
    if (calls++ === 0) throw new Error("knowledge index unavailable");
  });
};
const graph = buildAnalysisGraph();

describe("analysis graph fan-out and join", () => {
  it("runs every analyzer once, then integrate once and advise once, with 4 artifacts", async () => {
    const counter = new NodeCounter();
    const ctx = decodeAnalysisRequest(sample("full-image-classification.json"), "r");
    const res = await runAnalysis(graph, ctx, testDeps(), { workers: 3, callbacks: [counter] });
    expect(counter.runs).toEqual({ route: 1, analyzeDataset: 1, analyzeChecks: 1, analyzeTraining: 1, analyzeCheckpoint: 1, integrate: 1, advise: 1 });
    expect(Object.keys(res.agent_results).sort()).toEqual([
      "ChecksArtifactsAnalyzer", "CrossArtifactReasoningAgent", "DatasetArtifactsAnalyzer",
      "ModelCheckpointArtifactsAnalyzer", "OptimizationAdvisorAgent", "TrainingArtifactsAnalyzer",
    ]);
    expect(res.dataset_name).toBe("shelf-products-12");
  });

  it("runs only the one analyzer with 1 artifact, and still integrates and advises once", async () => {
    const counter = new NodeCounter();
    const ctx = decodeAnalysisRequest({ training_artifacts: { metrics: { train_loss: [2, 1.5, 1.2, 1.0, 0.9] } } }, "r");
    const res = await runAnalysis(graph, ctx, testDeps(), { workers: 3, callbacks: [counter] });
    expect(counter.runs).toEqual({ route: 1, analyzeTraining: 1, integrate: 1, advise: 1 });
    expect(Object.keys(res.agent_results).sort()).toEqual(["CrossArtifactReasoningAgent", "OptimizationAdvisorAgent", "TrainingArtifactsAnalyzer"]);
    expect(res.error_messages).toEqual({});
  });

  it("bounds parallel analyzers by the worker count, including 1 through our own limiter", async () => {
    const ctx = decodeAnalysisRequest(sample("full-image-classification.json"), "r");
    const slow = passThroughKnowledge(() => new Promise((r) => setTimeout(r, 30)));
    for (const [workers, expected] of [[3, 3], [2, 2], [1, 1]] as const) {
      const counter = new NodeCounter();
      const deps = testDeps({ knowledge: slow, analyzerSlots: workers < 2 ? createLimiter(workers) : null });
      const res = await runAnalysis(graph, ctx, deps, { workers, callbacks: [counter] });
      // The limiter runs inside the node, so with 1 worker the node spans overlap but the work does not.
      if (workers >= 2) expect(counter.peak).toBe(expected);
      expect(counter.runs.integrate).toBe(1);
      expect(Object.keys(res.agent_results)).toHaveLength(6);
    }
  });

  it("turns a failing analyzer into a partial result with the agent's error, the others intact", async () => {
    const res = await runAnalysis(graph, decodeAnalysisRequest(sample("full-image-classification.json"), "r"), testDeps({ knowledge: failingOnce() }), { workers: 3 });
    const failed = Object.entries(res.error_messages).filter(([, m]) => m === "failed: knowledge index unavailable");
    expect(failed).toHaveLength(1);
    expect(res.agent_results[failed[0]![0]]!.error_message).toBe("failed: knowledge index unavailable");
    expect(res.agent_results[failed[0]![0]]!.findings).toEqual([]);
    expect(Object.keys(res.agent_results)).toHaveLength(6);
    expect(res.agent_results.CrossArtifactReasoningAgent!.error_message).toBeNull();
  });

  it("reports a timed-out agent with its detector findings and finishes the rest (SERVICE_AGENT_TIMEOUT_MS)", async () => {
    const gate = createGate();
    let calls = 0;
    // The first analyzer to ask for citations hangs; the others pass.
    const knowledge = passThroughKnowledge(async () => { if (calls++ === 0) await gate.wait(); });
    const ctx = decodeAnalysisRequest(sample("full-image-classification.json"), "r");
    const settings = loadServiceSettings({ SERVICE_AGENT_TIMEOUT_MS: "200" });
    const [inTime, late] = [await runAnalysis(graph, ctx, testDeps(), { workers: 3 }), await runAnalysis(graph, ctx, testDeps({ knowledge, settings }), { workers: 3 })];
    gate.open();
    const timedOut = Object.entries(late.error_messages).filter(([, m]) => m === "timed out after 200 ms (SERVICE_AGENT_TIMEOUT_MS); detector findings kept");
    expect(timedOut).toHaveLength(1);
    const [agent] = timedOut[0]!;
    // Its detectors had run before the hang: their findings are all there, uncited.
    expect(late.agent_results[agent]!.findings.map((f) => f.id)).toEqual(inTime.agent_results[agent]!.findings.map((f) => f.id));
    expect(late.agent_results[agent]!.findings.length).toBeGreaterThan(0);
    expect(Object.keys(late.agent_results)).toHaveLength(6);
  });

  it("makes any agent failure a StrictModeError with strict: true", async () => {
    const body = { ...(sample("full-image-classification.json") as object), strict: true };
    const run = runAnalysis(graph, decodeAnalysisRequest(body, "r"), testDeps({ knowledge: failingOnce() }), { workers: 3 });
    await expect(run).rejects.toBeInstanceOf(StrictModeError);
    await expect(run).rejects.toThrow(/strict mode: .*Analyzer: failed: knowledge index unavailable/);
  });

  it("stops when the request is aborted", async () => {
    const gate = createGate();
    const deadline = new Deadline();
    const ctx = decodeAnalysisRequest(sample("full-image-classification.json"), "r");
    const run = runAnalysis(graph, ctx, testDeps({ knowledge: passThroughKnowledge(gate.wait), deadline }), { workers: 3 });
    setTimeout(() => deadline.abort(new Error("client disconnected")), 20);
    await expect(run).rejects.toThrow();
    gate.open();
  });
  it("keeps its topology when given other node functions (the bench's framework floor runs it with no-ops)", async () => {
    const order: string[] = [];
    const noOp = (node: string) => async () => {
      order.push(node);
      return {};
    };
    const nodes = Object.fromEntries(Object.keys(ANALYSIS_NODES).map((node) => [node, noOp(node)])) as unknown as typeof ANALYSIS_NODES;
    const counter = new NodeCounter();
    const ctx = decodeAnalysisRequest(sample("full-image-classification.json"), "r");
    await buildAnalysisGraph(nodes).invoke({ context: ctx }, { context: {}, maxConcurrency: 3, callbacks: [counter] });
    expect(counter.runs).toEqual({ route: 1, analyzeDataset: 1, analyzeChecks: 1, analyzeTraining: 1, analyzeCheckpoint: 1, integrate: 1, advise: 1 });
    expect(order[0]).toBe("route");
    expect(order.slice(1, 5).sort()).toEqual(["analyzeCheckpoint", "analyzeChecks", "analyzeDataset", "analyzeTraining"]);
    expect(order.slice(5)).toEqual(["integrate", "advise"]);
    expect(counter.peak).toBe(3);
  });
});
