import { afterEach, describe, expect, it } from "vitest";
import type { UsageReport } from "../../llm/usage.js";
import { modelAnswer } from "../support/fake-openai.js";
import { type LlmHarness, sampleRequest, startLlmHarness } from "./llm-harness.js";

const SAMPLE = "full-image-classification.json";
const usageOf = (response: { additional_outputs: Record<string, unknown> }) => response.additional_outputs.usage as UsageReport;

let harness: LlmHarness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

describe("LLM response cache across analyses", () => {
  it("answers a repeated analysis from the cache: no requests, the same results, cached tokens reported apart", async () => {
    harness = await startLlmHarness(modelAnswer);
    const first = await harness.analyze(sampleRequest(SAMPLE, "es"));
    const sent = harness.fake!.requests.length;
    const second = await harness.analyze(sampleRequest(SAMPLE, "es"));

    expect(harness.fake!.requests).toHaveLength(sent);
    expect(harness.port!.cache!.hits).toBe(sent);
    expect(second.agent_results).toEqual(first.agent_results);
    expect(second.summary).toBe(first.summary);
    const before = usageOf(first).total;
    expect(usageOf(second).total).toEqual({
      calls: sent,
      cache_hits: sent,
      failed_calls: 0,
      input_tokens: 0,
      output_tokens: 0,
      total_tokens: 0,
      cached_input_tokens: before.input_tokens,
      cached_output_tokens: before.output_tokens,
      cached_total_tokens: before.total_tokens,
    });
    // The first analysis' report is its own: a later hit does not rewrite it (no aliasing).
    expect(usageOf(first).total).toMatchObject({ cache_hits: 0, total_tokens: before.total_tokens });
    expect(before.total_tokens).toBeGreaterThan(0);
  });

  it("asks again for another language (the prompt differs)", async () => {
    harness = await startLlmHarness(modelAnswer);
    await harness.analyze(sampleRequest(SAMPLE, "es"));
    const sent = harness.fake!.requests.length;
    const italian = await harness.analyze(sampleRequest(SAMPLE, "it"));
    expect(harness.fake!.requests).toHaveLength(2 * sent);
    expect(usageOf(italian).total.cache_hits).toBe(0);
    expect(italian.summary).toMatch(/^\[it\] /);
  });

  it("without SERVICE_LLM_CACHE every analysis asks the model, and without SERVICE_LLM_TRACK_USAGE there is no usage", async () => {
    harness = await startLlmHarness(modelAnswer, { llm: { cache: false, trackUsage: false } });
    const first = await harness.analyze(sampleRequest(SAMPLE, "es"));
    const sent = harness.fake!.requests.length;
    await harness.analyze(sampleRequest(SAMPLE, "es"));
    expect(harness.fake!.requests).toHaveLength(2 * sent);
    expect(first.additional_outputs.usage).toBeUndefined();
    expect(first.additional_outputs.llm).toMatchObject({ mode: "llm", cache: false, track_usage: false });
  });
});
