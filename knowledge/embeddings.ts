import type { OpenAIEmbeddings } from "@langchain/openai";
import type { TextEmbedder } from "./dense.js";

export interface EmbeddingsConfig {
  model: string;
  /** The OpenAI-compatible base URL shared with the chat model; null: the provider's default. */
  baseUrl: string | null;
  apiKey: string | null;
  timeoutMs: number;
  maxRetries: number;
}

/**
 * Embeddings client for an OpenAI-compatible `/v1/embeddings` endpoint. The client library is loaded on the
 * first call, not at start-up: importing @langchain/openai is a third of the service's start-up time.
 */
export function createOpenAiEmbedder(config: EmbeddingsConfig): TextEmbedder {
  let client: Promise<OpenAIEmbeddings> | null = null;
  const loaded = () =>
    (client ??= import("@langchain/openai").then(
      ({ OpenAIEmbeddings }) =>
        new OpenAIEmbeddings({
          model: config.model,
          // The client insists on a key; local OpenAI-compatible servers ignore it.
          apiKey: config.apiKey ?? "not-set",
          configuration: config.baseUrl ? { baseURL: config.baseUrl } : {},
          timeout: config.timeoutMs,
          maxRetries: config.maxRetries,
          // Plain floats: every OpenAI-compatible server speaks them (base64 is the SDK default).
          encodingFormat: "float",
          batchSize: 64,
        }),
    ));
  return {
    embedQuery: async (text) => (await loaded()).embedQuery(text),
    embedDocuments: async (texts) => (await loaded()).embedDocuments(texts),
  };
}
