import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AnalysisResponse } from "../../graph/response.js";
import { AGENT_NAMES, type Finding } from "../../domain/result.js";
import { LLM_BUDGET } from "../../graph/budgets.js";
import type { UsageReport } from "../../llm/usage.js";
import { type FakeReply, type ChatRequestBody, isRetry, modelAnswer, requestAgent } from "../support/fake-openai.js";
import { type HarnessOptions, type LlmHarness, sampleRequest, startLlmHarness } from "./llm-harness.js";

const SAMPLE = "full-image-classification.json";
const evidenceOf = (f: Finding) => ({ id: f.id, evidence: f.evidence, severity: f.severity, source: f.source, citations: f.citations });

let baseline: AnalysisResponse;
let harness: LlmHarness | null = null;
beforeAll(async () => {
  baseline = await (await startLlmHarness(null)).analyze(sampleRequest(SAMPLE, "de"));
  // The port loads its chat client on the first model call, inside that call's time-out (llm/openai-port.ts):
  // loaded here, a loaded machine's seconds of module loading are not charged to the time-out test's model calls.
  await import("../../llm/chat-model.js");
});
afterEach(async () => {
  await harness?.close();
  harness = null;
});

/** The fake model, except for one agent, which gets `fault`. */
async function analyzeWithFault(agent: string, fault: (body: ChatRequestBody) => FakeReply, options: HarnessOptions = {}) {
  harness = await startLlmHarness((body) => (requestAgent(body) === agent ? fault(body) : modelAnswer(body)), options);
  const response = await harness.analyze(sampleRequest(SAMPLE, "de"));
  const requestsFor = (name: string) => harness!.fake!.requests.filter((r) => requestAgent(r.body) === name);
  return { response, requestsFor };
}

function expectDetectorFindingsKept(response: AnalysisResponse, agent: string) {
  const findings = response.agent_results[agent]!.findings;
  expect(findings.map(evidenceOf)).toEqual(baseline.agent_results[agent]!.findings.map(evidenceOf));
  expect(baseline.agent_results[agent]!.findings.length).toBeGreaterThan(0);
}

describe("LLM faults degrade to partial results", () => {
  it("a time-out ends that agent's review only: its detector findings stay, the others get the LLM's text", async () => {
    // Every model call gets this time-out, so the well-behaved ones must end well inside it: on two cores under a
    // load of 10 they took up to 1.5 s (a new port's first calls, four at once); the fault waits far longer.
    const timeoutMs = 8_000;
    const { response, requestsFor } = await analyzeWithFault(AGENT_NAMES.dataset, () => ({ delayMs: 60_000, content: "{}" }), {
      env: { SERVICE_LLM_TIMEOUT_MS: String(timeoutMs), SERVICE_LLM_MAX_RETRIES: "0" },
    });
    expect(response.error_messages[AGENT_NAMES.dataset]).toBe(
      `language model review failed, detector findings kept: ${LLM_BUDGET} timed out after ${timeoutMs} ms`,
    );
    expectDetectorFindingsKept(response, AGENT_NAMES.dataset);
    expect(requestsFor(AGENT_NAMES.dataset)).toHaveLength(1);
    // Only that agent failed: every other analyzer has the model's summary, and so has the analysis.
    expect(Object.keys(response.error_messages)).toEqual([AGENT_NAMES.dataset]);
    for (const agent of [AGENT_NAMES.checks, AGENT_NAMES.training, AGENT_NAMES.checkpoint]) {
      expect(response.agent_results[agent]!.summary).toMatch(/^\[de\] /);
    }
    expect(response.summary).toMatch(/^\[de\] /);
  });

  it("a 500 is retried SERVICE_LLM_MAX_RETRIES times, then reported with the detector findings kept", async () => {
    const { response, requestsFor } = await analyzeWithFault(AGENT_NAMES.dataset, () => ({ status: 500 }), {
      env: { SERVICE_LLM_MAX_RETRIES: "1" },
    });
    expect(requestsFor(AGENT_NAMES.dataset)).toHaveLength(2);
    expect(response.error_messages[AGENT_NAMES.dataset]).toMatch(/500/);
    expectDetectorFindingsKept(response, AGENT_NAMES.dataset);
    const usage = response.additional_outputs.usage as UsageReport;
    expect(usage.by_agent[AGENT_NAMES.dataset]).toMatchObject({ calls: 0, failed_calls: 1, total_tokens: 0 });
  });

  it("malformed JSON is asked for once more, then recorded in error_messages with the detector findings intact", async () => {
    const { response, requestsFor } = await analyzeWithFault(AGENT_NAMES.dataset, () => ({ content: '{"summary": "unterminated' }));
    const attempts = requestsFor(AGENT_NAMES.dataset);
    expect(attempts.map((r) => isRetry(r.body))).toEqual([false, true]);
    expect(response.error_messages[AGENT_NAMES.dataset]).toMatch(/did not match the agent_review schema twice: not valid JSON/);
    expectDetectorFindingsKept(response, AGENT_NAMES.dataset);
    expect(response.agent_results[AGENT_NAMES.dataset]!.error_message).toBe(response.error_messages[AGENT_NAMES.dataset]);
  });

  it("a schema-violating first reply is repaired by the one retry", async () => {
    const { response, requestsFor } = await analyzeWithFault(AGENT_NAMES.dataset, (body) =>
      isRetry(body) ? modelAnswer(body) : { content: JSON.stringify({ summary: "x", findings: "none", new_findings: [] }) },
    );
    expect(requestsFor(AGENT_NAMES.dataset)).toHaveLength(2);
    expect(response.error_messages[AGENT_NAMES.dataset]).toBeUndefined();
    expect(response.agent_results[AGENT_NAMES.dataset]!.summary).toMatch(/^\[de\] /);
  });

  it("a failed summary keeps the templated one and says so", async () => {
    const { response } = await analyzeWithFault(AGENT_NAMES.integrate, () => ({ status: 400 }));
    // The template over the (LLM-reworded) findings, not the model's summary.
    expect(response.summary).toMatch(/^\d+ issue\(s\) need attention|^No significant problem/);
    expect(response.summary).toContain("[de] ");
    expect(response.error_messages[AGENT_NAMES.integrate]).toMatch(/templated summary kept/);
  });

  it("failed advice keeps the templated advice and the plan's links", async () => {
    const { response } = await analyzeWithFault(AGENT_NAMES.advise, () => ({ content: "not json" }));
    expect(response.error_messages[AGENT_NAMES.advise]).toMatch(/templated advice kept/);
    expect(response.additional_outputs.advice).not.toBeNull();
  });
});
