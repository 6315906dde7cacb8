import { AIMessage } from "@langchain/core/messages";
import type { ChatGeneration, Generation } from "@langchain/core/outputs";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { LruLlmCache } from "../../../llm/cache.js";
import { createChatModel } from "../../../llm/chat-model.js";
import { type FakeOpenAI, fakeUsage, startFakeOpenAI } from "../../support/fake-openai.js";

const generation = (text: string) => [{ text, message: new AIMessage({ content: text, usage_metadata: { input_tokens: 11, output_tokens: 7, total_tokens: 18 } }) }];

describe("LruLlmCache", () => {
  it("returns a fresh copy on every hit, so changing one answer never changes another", async () => {
    const cache = new LruLlmCache();
    await cache.update("prompt", "llm", generation("hello"));
    const a = (await cache.lookup("prompt", "llm"))!;
    const b = (await cache.lookup("prompt", "llm"))!;
    expect(a[0]!.text).toBe("hello");
    expect(a[0]).not.toBe(b[0]);
    const messageOf = (g: Generation | undefined) => (g as ChatGeneration).message as AIMessage;
    messageOf(a[0]).usage_metadata = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
    expect(messageOf(b[0]).usage_metadata?.total_tokens).toBe(18);
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 2, misses: 0 });
  });

  it("keys on prompt and model parameters together", async () => {
    const cache = new LruLlmCache();
    await cache.update("prompt", "temperature:0.2", generation("x"));
    expect(await cache.lookup("prompt", "temperature:0.7")).toBeNull();
    expect(await cache.lookup("other", "temperature:0.2")).toBeNull();
    expect(cache.misses).toBe(2);
  });

  it("is bounded: the least recently used entry goes first", async () => {
    const cache = new LruLlmCache({ max: 2 });
    await cache.update("a", "k", generation("a"));
    await cache.update("b", "k", generation("b"));
    await cache.lookup("a", "k");
    await cache.update("c", "k", generation("c"));
    expect(cache.size).toBe(2);
    expect(await cache.lookup("b", "k")).toBeNull();
    expect(await cache.lookup("a", "k")).not.toBeNull();
  });

  it("forgets entries after their TTL on the injected clock", async () => {
    let now = 1_000;
    const cache = new LruLlmCache({ ttlMs: 60_000, clock: { now: () => now } });
    await cache.update("a", "k", generation("a"));
    now += 59_000;
    expect(await cache.lookup("a", "k")).not.toBeNull();
    now += 2_000;
    expect(await cache.lookup("a", "k")).toBeNull();
  });
});

describe("ChatOpenAI with the LRU cache", () => {
  let fake: FakeOpenAI | null = null;
  afterEach(async () => {
    await fake?.close();
    fake = null;
  });

  it("answers an identical prompt from the cache without a request and keeps the first answer's token counts", async () => {
    fake = await startFakeOpenAI(() => ({ content: "fine" }));
    const cache = new LruLlmCache();
    const config = { apiKey: null, baseUrl: fake.baseURL, modelName: "fake-model", temperature: 0, maxTokens: 64, cache: true, trackUsage: true };
    const model = createChatModel(config, { timeoutMs: 5000, maxRetries: 0, cache });
    const first = await model.invoke("same prompt");
    const second = await model.invoke("same prompt");
    await model.invoke("another prompt");
    expect(fake.requests).toHaveLength(2);
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 1, misses: 2 });
    expect(second.content).toBe("fine");
    expect(second).not.toBe(first);
    const expected = fakeUsage(fake.requests[0]!.body, "fine");
    expect(first.usage_metadata).toMatchObject({ input_tokens: expected.prompt_tokens, output_tokens: expected.completion_tokens });
    // LangChain zeroes a hit's usage_metadata; the original counts stay in response_metadata.tokenUsage.
    expect(second.usage_metadata?.total_tokens).toBe(0);
    expect(second.response_metadata.tokenUsage).toMatchObject({ promptTokens: expected.prompt_tokens, completionTokens: expected.completion_tokens });
  });

  it("keys on the request, not on run-config keys a LangGraph node passes along (its context, execution info)", async () => {
    fake = await startFakeOpenAI(() => ({ content: JSON.stringify({ ok: true }) }));
    const config = { apiKey: null, baseUrl: fake.baseURL, modelName: "fake-model", temperature: 0, maxTokens: 64, cache: true, trackUsage: true };
    const model = createChatModel(config, { timeoutMs: 5000, maxRetries: 0, cache: new LruLlmCache() });
    const structured = model.withStructuredOutput(z.object({ ok: z.boolean() }), { name: "probe", method: "jsonSchema" });
    await structured.invoke("same", { context: { requestId: "a" } } as object);
    await structured.invoke("same", { context: { requestId: "b" } } as object);
    expect(fake.requests).toHaveLength(1);
  });
});
