import { readFileSync } from "node:fs";
import { getConfig } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { decodeAnalysisRequest } from "../../artifacts/request.js";
import { parseTolerantJson } from "../../artifacts/tolerant-json.js";
import { buildAnalysisGraph } from "../../graph/build.js";
import { runAnalysis } from "../../graph/run.js";
import type { KnowledgePort } from "../../knowledge/port.js";
import { SpanCollector } from "../../server/trace.js";
import { passThroughKnowledge, testDeps } from "../support/analysis-deps.js";

const sample = () =>
  decodeAnalysisRequest(parseTolerantJson(readFileSync(new URL("../fixtures/samples/full-image-classification.json", import.meta.url), "utf8")), "r");
const graph = buildAnalysisGraph();

describe("node runs (graph/node-runs.ts)", () => {
  it("reports every node of a deterministic analysis once, at its superstep, with no LangChain callbacks set up", async () => {
    const spans = new SpanCollector();
    const callbacksSeen: unknown[] = [];
    const inner = passThroughKnowledge();
    const knowledge: KnowledgePort = {
      ...inner,
      citeFindings: async (findings, signal) => {
        callbacksSeen.push(getConfig().callbacks);
        return inner.citeFindings(findings, signal);
      },
    };
    const response = await runAnalysis(graph, sample(), testDeps({ knowledge, nodeRuns: spans }), { workers: 3 });
    const byNode = Object.fromEntries(spans.spans.map((s) => [s.node, s]));
    expect(spans.spans).toHaveLength(7);
    expect(Object.fromEntries(Object.entries(byNode).map(([node, s]) => [node, s.step]))).toEqual({
      route: 1, analyzeDataset: 2, analyzeChecks: 2, analyzeTraining: 2, analyzeCheckpoint: 2, integrate: 3, advise: 4,
    });
    expect(spans.spans.every((s) => s.outcome === "ok" && s.duration_ms >= 0)).toBe(true);
    expect(byNode.analyzeTraining!.findings).toBe(response.agent_results.TrainingArtifactsAnalyzer!.findings.length);
    expect(byNode.route!.findings).toBeNull();
    expect(callbacksSeen.length).toBeGreaterThan(0);
    expect(callbacksSeen.every((c) => c === undefined)).toBe(true);
  });

  it("reports a failing analyzer as an error span, and the run goes on", async () => {
    const spans = new SpanCollector();
    let calls = 0;
    const knowledge = passThroughKnowledge(async () => {
      if (calls++ === 0) throw new Error("knowledge index unavailable");
    });
    const response = await runAnalysis(graph, sample(), testDeps({ knowledge, nodeRuns: spans }), { workers: 1 });
    const failed = spans.spans.filter((s) => s.outcome !== "ok");
    expect(failed).toHaveLength(1);
    expect(failed[0]!.error).toMatch(/knowledge index unavailable/);
    expect(spans.spans.map((s) => s.node)).toContain("advise");
    expect(Object.keys(response.error_messages)).toHaveLength(1);
  });
});
