import { describe, expect, it } from "vitest";
import type { Span, SpanStart } from "../../../domain/trace.js";
import { SpanCollector } from "../../../server/trace.js";

/** A clock the test moves by hand. */
function manualClock(start = 1000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const meta = (node: string, step: number) => ({ langgraph_node: node, langgraph_step: step });
// (chain, inputs, runId, parentRunId, tags, metadata, runType, runName), as @langchain/core calls it.
const start = (c: SpanCollector, runId: string, node: string, step: number, runName = node) =>
  c.handleChainStart({}, {}, runId, "parent", [], meta(node, step), undefined, runName);

describe("SpanCollector", () => {
  it("times each graph node from its own start to its end and reports findings and recorded errors", () => {
    const clock = manualClock();
    const started: SpanStart[] = [];
    const finished: Span[] = [];
    const c = new SpanCollector({ started: (s) => started.push(s), finished: (s) => finished.push(s) }, clock.now);
    clock.advance(5);
    start(c, "r1", "analyzeDataset", 2);
    start(c, "r2", "analyzeChecks", 2);
    clock.advance(40);
    c.handleChainEnd({ agentResults: { DatasetArtifactsAnalyzer: { findings: [{}, {}, {}] } }, errors: {} }, "r1");
    clock.advance(10.04);
    c.handleChainEnd({ agentResults: { ChecksArtifactsAnalyzer: { findings: [] } }, errors: { ChecksArtifactsAnalyzer: "could not read checks_artifacts" } }, "r2");

    expect(started).toEqual([
      { node: "analyzeDataset", step: 2, start_ms: 5 },
      { node: "analyzeChecks", step: 2, start_ms: 5 },
    ]);
    expect(finished).toEqual([
      { node: "analyzeDataset", step: 2, start_ms: 5, duration_ms: 40, outcome: "ok", findings: 3, error: null },
      { node: "analyzeChecks", step: 2, start_ms: 5, duration_ms: 50, outcome: "error", findings: 0, error: "could not read checks_artifacts" },
    ]);
    expect(c.spans).toEqual(finished);
  });

  it("ignores chains that are not graph nodes: the graph itself, conditional edges, error handlers", () => {
    const c = new SpanCollector({}, manualClock().now);
    c.handleChainStart({}, {}, "g", undefined, [], {}, undefined, "analysis");
    start(c, "edge", "route", 1, "RunnableLambda");
    start(c, "eh", "__error_handler__analyzeDataset", 2);
    for (const id of ["g", "edge", "eh"]) c.handleChainEnd({}, id);
    expect(c.spans).toEqual([]);
  });

  it("tells an analyzer that ran out of its budget and an abort from other errors", () => {
    const clock = manualClock();
    const c = new SpanCollector({}, clock.now);
    start(c, "a", "analyzeTraining", 2);
    start(c, "b", "analyzeCheckpoint", 2);
    start(c, "c", "integrate", 3);
    clock.advance(100);
    const timedOut = "timed out after 100 ms (SERVICE_AGENT_TIMEOUT_MS); detector findings kept";
    c.handleChainEnd({ agentResults: { TrainingArtifactsAnalyzer: { findings: [{}, {}] } }, errors: { TrainingArtifactsAnalyzer: timedOut } }, "a");
    c.handleChainError(Object.assign(new Error("This operation was aborted"), { name: "AbortError" }), "b");
    c.handleChainError(new Error("boom"), "c");
    expect(c.spans.map((s) => [s.node, s.outcome, s.findings])).toEqual([
      ["analyzeTraining", "timeout", 2],
      ["analyzeCheckpoint", "aborted", null],
      ["integrate", "error", null],
    ]);
    expect(c.spans[0]!.error).toBe(timedOut);
    expect(c.spans[2]!.error).toBe("boom");
  });
});
