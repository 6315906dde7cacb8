import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadServiceSettings } from "../../../config/env.js";
import { createKnowledgeBase } from "../../../knowledge/create.js";
import { loadLlmConfig } from "../../../llm/config.js";
import { type FakeEmbeddingsServer, startFakeEmbeddings } from "../../support/fake-embeddings.js";

let server: FakeEmbeddingsServer;
beforeAll(async () => {
  server = await startFakeEmbeddings();
});
afterAll(async () => {
  await server.close();
});

function hybridKnowledgeBase() {
  const raw = {
    SERVICE_EMBEDDINGS_MODEL_NAME: "fake-embed",
    SERVICE_LLM_MODEL_NAME: "fake-chat",
    SERVICE_LLM_BASE_URL: server.baseUrl,
    SERVICE_LLM_API_KEY: "test-key",
    SERVICE_LLM_TEMPERATURE: "0",
    SERVICE_LLM_MAX_TOKENS: "100",
    SERVICE_LLM_MAX_RETRIES: "0",
  };
  return createKnowledgeBase({ settings: loadServiceSettings(raw), llmConfig: loadLlmConfig(raw).config });
}

describe("hybrid ranking with an OpenAI-compatible embeddings endpoint", () => {
  it("fuses full-text and embedding rankings, embedding the corpus once", async () => {
    server.requests.length = 0;
    const kb = hybridKnowledgeBase();
    expect(kb.stats().hybrid).toBe(true);
    const first = await kb.search({ q: "train test overlap duplicates across splits", limit: 3 });
    expect(first.mode).toBe("hybrid");
    expect(first.documents[0]!.id).toBe("train-test-overlap");
    expect(first.documents[0]!.dense_score).toBeGreaterThan(0);
    expect(first.documents[0]!.text_score).toBeGreaterThan(0);
    await kb.search({ q: "mixed precision overflow fp16 loss scale" });
    // Every document once, plus each of the two queries once (a batch may hold a single document).
    expect(server.requests.reduce((n, r) => n + r.inputs.length, 0)).toBe(kb.documents.length + 2);
    expect(server.requests.every((r) => r.model === "fake-embed" && r.encoding === "float")).toBe(true);
  });

  it("falls back to full text when the endpoint fails, and does not cache the degraded ranking", async () => {
    const kb = hybridKnowledgeBase();
    server.failing = true;
    try {
      const degraded = await kb.search({ q: "label noise confident learning" });
      expect(degraded.mode).toBe("full_text_fallback");
      expect(degraded.documents[0]!.id).toBe("label-noise");
      expect(kb.stats().cache.entries).toBe(0);
    } finally {
      server.failing = false;
    }
    const recovered = await kb.search({ q: "label noise confident learning" });
    expect(recovered.mode).toBe("hybrid");
    expect(kb.stats().cache.entries).toBe(1);
  });

  it("refuses an embeddings model without the language model's endpoint, naming the variables", () => {
    const settings = loadServiceSettings({ SERVICE_EMBEDDINGS_MODEL_NAME: "fake-embed" });
    expect(() => createKnowledgeBase({ settings, llmConfig: null })).toThrow(ConfigError);
    expect(() => createKnowledgeBase({ settings, llmConfig: null })).toThrow(/SERVICE_EMBEDDINGS_MODEL_NAME.*SERVICE_LLM_MODEL_NAME/);
  });
});
