import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnalysisResponse } from "../../graph/response.js";
import { AGENT_NAMES, type Finding } from "../../domain/result.js";
import type { UsageReport } from "../../llm/usage.js";
import { fakeUsage, modelAnswer, requestAgent, requestLanguage } from "../support/fake-openai.js";
import { type LlmHarness, sampleRequest, startLlmHarness } from "./llm-harness.js";

const SAMPLE = "full-image-classification.json";
const ANALYZERS = [AGENT_NAMES.dataset, AGENT_NAMES.checks, AGENT_NAMES.training, AGENT_NAMES.checkpoint];
const ALL_AGENTS = [...ANALYZERS, AGENT_NAMES.integrate, AGENT_NAMES.advise];

/** What must survive the model: a detector finding's id, evidence, severity and source. */
const evidenceOf = (f: Finding) => ({ id: f.id, evidence: f.evidence, severity: f.severity, source: f.source });

describe("analysis of the sample artifacts with the LLM (fake OpenAI server)", () => {
  let llm: LlmHarness;
  let baseline: AnalysisResponse;
  let response: AnalysisResponse;

  beforeAll(async () => {
    const deterministic = await startLlmHarness(null);
    baseline = await deterministic.analyze(sampleRequest(SAMPLE, "fr"));
    llm = await startLlmHarness(modelAnswer);
    response = await llm.analyze(sampleRequest(SAMPLE, "fr"));
  });
  afterAll(() => llm.close());

  it("makes exactly one chat request per agent, each asking for French", () => {
    const requests = llm.fake!.requests;
    expect(requests.map((r) => requestAgent(r.body)).sort()).toEqual([...ALL_AGENTS].sort());
    for (const r of requests) expect(requestLanguage(r.body)).toEqual({ name: "French", code: "fr" });
    expect(response.error_messages).toEqual({});
  });

  it("returns LLM-written text in French for every analyzer, detector findings intact", () => {
    for (const agent of ANALYZERS) {
      const result = response.agent_results[agent]!;
      const detected = baseline.agent_results[agent]!.findings;
      expect(result.summary, agent).toMatch(/^\[fr\] /);
      expect(result.findings.filter((f) => f.source === "detector").map(evidenceOf), agent).toEqual(
        expect.arrayContaining(detected.map(evidenceOf)),
      );
      for (const f of result.findings) expect(f.description, `${agent} ${f.id}`).toMatch(/^\[fr\] /);
      expect(result.findings.filter((f) => f.source === "llm").map((f) => f.id), agent).toHaveLength(1);
    }
  });

  it("writes the cross-artifact summary and the advice with the LLM, recommendation links kept", () => {
    expect(response.summary).toMatch(/^\[fr\] cross-artifact summary/);
    expect(response.agent_results[AGENT_NAMES.integrate]!.summary).toBe(response.summary);
    expect(response.additional_outputs.advice).toMatch(/^\[fr\] advice/);
    const plan = response.additional_outputs.recommendations as Array<{ action: string; finding_ids: string[] }>;
    const before = baseline.additional_outputs.recommendations as Array<{ finding_ids: string[] }>;
    expect(plan.length).toBeGreaterThan(0);
    for (const rec of plan) expect(rec.action).toMatch(/^\[fr\] step \d+/);
    const linked = new Set(plan.flatMap((r) => r.finding_ids));
    for (const id of before.flatMap((r) => r.finding_ids)) expect(linked).toContain(id);
  });

  it("reports token usage per agent and in total, matching what the server counted", () => {
    const usage = response.additional_outputs.usage as UsageReport;
    const spent = llm.fake!.requests.map((r) => fakeUsage(r.body, modelAnswer(r.body).content!));
    expect(Object.keys(usage.by_agent).sort()).toEqual([...ALL_AGENTS].sort());
    expect(usage.total).toMatchObject({
      calls: 6,
      cache_hits: 0,
      failed_calls: 0,
      input_tokens: spent.reduce((n, u) => n + u.prompt_tokens, 0),
      output_tokens: spent.reduce((n, u) => n + u.completion_tokens, 0),
      total_tokens: spent.reduce((n, u) => n + u.total_tokens, 0),
    });
    expect(response.additional_outputs.llm).toMatchObject({ mode: "llm", model: "fake-model", language: "fr" });
  });

  it("without an LLM answers in English and says so", () => {
    expect(baseline.additional_outputs.llm).toMatchObject({ mode: "deterministic", language: "en" });
    expect(String((baseline.additional_outputs.llm as { note: string }).note)).toMatch(/English \(requested: French\)/);
    expect(baseline.additional_outputs.usage).toBeUndefined();
  });
});
