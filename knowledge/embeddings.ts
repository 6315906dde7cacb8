import { OpenAIEmbeddings } from "@langchain/openai";
import type { TextEmbedder } from "./dense.js";

export interface EmbeddingsConfig {
  model: string;
  /** The OpenAI-compatible base URL shared with the chat model; null: the provider's default. */
  baseUrl: string | null;
  apiKey: string | null;
  timeoutMs: number;
  maxRetries: number;
}

/** Embeddings client for an OpenAI-compatible `/v1/embeddings` endpoint. */
export function createOpenAiEmbedder(config: EmbeddingsConfig): TextEmbedder {
  return new OpenAIEmbeddings({
    model: config.model,
    // The client insists on a key; local OpenAI-compatible servers ignore it.
    apiKey: config.apiKey ?? "not-set",
    configuration: config.baseUrl ? { baseURL: config.baseUrl } : {},
    timeout: config.timeoutMs,
    maxRetries: config.maxRetries,
    // Plain floats: every OpenAI-compatible server speaks them (base64 is the SDK default).
    encodingFormat: "float",
    batchSize: 64,
  });
}
