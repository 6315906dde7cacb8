import type { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { RunnableLambda } from "@langchain/core/runnables";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createLogger } from "../../../config/logger.js";
import type { GroundingReport } from "../../../domain/grounding.js";
import { createChatModel } from "../../../llm/chat-model.js";
import type { LlmConfig } from "../../../llm/config.js";
import { announceGrounding, GroundingCollector } from "../../../llm/grounding/events.js";
import { LlmCallLog } from "../../../llm/logging.js";
import type { ChatMessages } from "../../../llm/prompt-kit.js";
import { invokeStructured } from "../../../llm/structured.js";
import { USAGE_AGENT_KEY, UsageCollector } from "../../../llm/usage.js";
import { SpanCollector } from "../../../server/trace.js";
import { type FakeOpenAI, startFakeOpenAI } from "../../support/fake-openai.js";

const Verdict = z.object({ severity: z.enum(["high", "low"]) });
const messages: ChatMessages = [
  { role: "system", content: "Judge." },
  { role: "user", content: JSON.stringify({ agent: "TestAgent" }) },
];
const API_KEY = "sk-run-callbacks-secret";
const report = { checked: 2, grounded: 1, removed: 1, reasons: {} } as unknown as GroundingReport;

let fake: FakeOpenAI | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function model() {
  fake = await startFakeOpenAI(() => ({ content: JSON.stringify({ severity: "high" }) }));
  const config: LlmConfig = { apiKey: API_KEY, baseUrl: fake.baseURL, modelName: "fake-model", temperature: 0, maxTokens: 64, cache: false, trackUsage: true };
  return createChatModel(config, { timeoutMs: 5000, maxRetries: 0, cache: null });
}

type Kind = "chain" | "llm" | "custom";
const METHODS: Record<Kind, string[]> = {
  chain: ["handleChainStart", "handleChainEnd"],
  llm: ["handleChatModelStart", "handleLLMEnd"],
  custom: ["handleCustomEvent"],
};

/** Counts the events LangChain hands the handler, by kind, and still runs the handler's own method. */
function countEvents(handler: BaseCallbackHandler): Record<Kind, number> {
  const counts: Record<Kind, number> = { chain: 0, llm: 0, custom: 0 };
  const methods = handler as unknown as Record<string, ((...args: unknown[]) => unknown) | undefined>;
  for (const kind of Object.keys(METHODS) as Kind[]) {
    for (const method of METHODS[kind]) {
      const own = methods[method]?.bind(handler);
      methods[method] = (...args: unknown[]) => {
        counts[kind]++;
        return own?.(...args);
      };
    }
  }
  return counts;
}

describe("the run's callback handlers", () => {
  it("are handed only the events they read, and still read them: model events for usage, the grounding event for the collectors", async () => {
    const chat = await model();
    const usage = new UsageCollector();
    const grounding = new GroundingCollector();
    const spans = new SpanCollector();
    const counted = { usage: countEvents(usage), grounding: countEvents(grounding), spans: countEvents(spans) };
    // A chain run around the call, as a graph node is: chain start and end events, the model's, one grounding event.
    const node = RunnableLambda.from(async (_: unknown, config) => {
      const answer = await invokeStructured(chat, Verdict, "verdict", messages, { ...config, metadata: { [USAGE_AGENT_KEY]: "TestAgent" } });
      await announceGrounding("TestAgent", report, config);
      return answer;
    });
    await expect(node.invoke({}, { callbacks: [usage, grounding, spans] })).resolves.toEqual({ severity: "high" });

    expect(counted.usage).toEqual({ chain: 0, llm: 2, custom: 0 });
    expect(counted.grounding).toEqual({ chain: 0, llm: 0, custom: 1 });
    expect(counted.spans).toEqual({ chain: 0, llm: 0, custom: 1 });
    expect(usage.report().by_agent.TestAgent).toMatchObject({ calls: 1, failed_calls: 0 });
    expect(usage.report().total.input_tokens).toBeGreaterThan(0);
    expect(grounding.report()).toEqual({ TestAgent: report });
  });

  it("log each model call by the time the call returns, also behind a slow handler on LangChain's background queue, without the key", async () => {
    const lines: string[] = [];
    const log = new LlmCallLog(createLogger("debug", {}, (line) => lines.push(line)));
    // A handler left to the background queue (one task at a time) that is still busy when the answer is back.
    const slow = { name: "slow-background", awaitHandlers: false, handleChatModelStart: () => new Promise<void>((resolve) => setTimeout(resolve, 300)) };
    const chat = await model();
    await invokeStructured(chat, Verdict, "verdict", messages, { callbacks: [slow, log], metadata: { [USAGE_AGENT_KEY]: "TestAgent" } });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: "llm call", agent: "TestAgent", cached: false });
    expect(lines[0]).not.toContain(API_KEY);
  });
});

describe("the chat model's serialized form (each call's start event)", () => {
  it("is built once per model, names the key only by its secret id, and is what the start event carries", async () => {
    const chat = await model();
    const first = chat.toJSON();
    expect(chat.toJSON()).toBe(first);
    expect(JSON.stringify(first)).not.toContain(API_KEY);
    expect(JSON.stringify(first)).toContain("OPENAI_API_KEY");

    const seen: unknown[] = [];
    const spy = { name: "serialized-spy", awaitHandlers: true, handleChatModelStart: (llm: unknown) => void seen.push(llm) };
    await chat.invoke("hello", { callbacks: [spy] });
    await chat.invoke("again", { callbacks: [spy] });
    expect(seen).toEqual([first, first]);
    expect(seen[0]).toBe(seen[1]);
  });
});
