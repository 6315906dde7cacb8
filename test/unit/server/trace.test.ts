import { describe, expect, it } from "vitest";
import type { GroundingReport } from "../../../domain/grounding.js";
import type { Span, SpanStart } from "../../../domain/trace.js";
import { GROUNDING_EVENT } from "../../../llm/grounding/events.js";
import { SpanCollector } from "../../../server/trace.js";

/** A clock the test moves by hand. */
function manualClock(start = 1000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("SpanCollector", () => {
  it("times each graph node from its own start to its end and reports findings and recorded errors", () => {
    const clock = manualClock();
    const started: SpanStart[] = [];
    const finished: Span[] = [];
    const c = new SpanCollector({ started: (s) => started.push(s), finished: (s) => finished.push(s) }, clock.now);
    clock.advance(5);
    const dataset = c.start("analyzeDataset", 2);
    const checks = c.start("analyzeChecks", 2);
    clock.advance(40);
    dataset.end({ agentResults: { DatasetArtifactsAnalyzer: { findings: [{}, {}, {}] } }, errors: {} });
    clock.advance(10.04);
    checks.end({ agentResults: { ChecksArtifactsAnalyzer: { findings: [] } }, errors: { ChecksArtifactsAnalyzer: "could not read checks_artifacts" } });

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

  it("reports no findings for a node that writes none (route)", () => {
    const c = new SpanCollector({}, manualClock().now);
    c.start("route", 1).end({});
    expect(c.spans.map((s) => [s.node, s.outcome, s.findings, s.error])).toEqual([["route", "ok", null, null]]);
  });

  it("tells an analyzer that ran out of its budget and an abort from other errors", () => {
    const clock = manualClock();
    const c = new SpanCollector({}, clock.now);
    const training = c.start("analyzeTraining", 2);
    const checkpoint = c.start("analyzeCheckpoint", 2);
    const integrate = c.start("integrate", 3);
    clock.advance(100);
    const timedOut = "timed out after 100 ms (SERVICE_AGENT_TIMEOUT_MS); detector findings kept";
    training.end({ agentResults: { TrainingArtifactsAnalyzer: { findings: [{}, {}] } }, errors: { TrainingArtifactsAnalyzer: timedOut } });
    checkpoint.fail(Object.assign(new Error("This operation was aborted"), { name: "AbortError" }));
    integrate.fail(new Error("boom"));
    expect(c.spans.map((s) => [s.node, s.outcome, s.findings])).toEqual([
      ["analyzeTraining", "timeout", 2],
      ["analyzeCheckpoint", "aborted", null],
      ["integrate", "error", null],
    ]);
    expect(c.spans[0]!.error).toBe(timedOut);
    expect(c.spans[2]!.error).toBe("boom");
  });

  it("puts an agent's grounding report on its own node's open span, and ignores other events and closed nodes", () => {
    const c = new SpanCollector({}, manualClock().now);
    const report = (removed: number) => ({ checked: 4, grounded: 4 - removed, removed, reasons: { number: removed } }) as GroundingReport;
    const advise = c.start("advise", 4);
    const training = c.start("analyzeTraining", 2);
    c.handleCustomEvent(GROUNDING_EVENT, { agent: "TrainingArtifactsAnalyzer", report: report(1) });
    c.handleCustomEvent("something_else", { agent: "OptimizationAdvisorAgent", report: report(2) });
    training.end({});
    c.handleCustomEvent(GROUNDING_EVENT, { agent: "TrainingArtifactsAnalyzer", report: report(3) });
    advise.end({});
    expect(c.spans.map((s) => [s.node, s.grounding?.removed])).toEqual([
      ["analyzeTraining", 1],
      ["advise", undefined],
    ]);
  });
});
