import { ConfigError, type ServiceSettings } from "../config/env.js";
import type { Logger } from "../config/logger.js";
import type { LlmConfig } from "../llm/config.js";
import type { CacheOptions } from "./cache.js";
import { DenseIndex, type TextEmbedder } from "./dense.js";
import { createOpenAiEmbedder } from "./embeddings.js";
import { KnowledgeBase } from "./knowledge-base.js";
import { type Retrieval, Retriever } from "./retriever.js";
import { indexCorpus, readSnapshot } from "./snapshot.js";

export interface KnowledgeBaseOptions {
  settings: Pick<ServiceSettings, "SERVICE_EMBEDDINGS_MODEL_NAME" | "SERVICE_LLM_TIMEOUT_MS" | "SERVICE_LLM_MAX_RETRIES">;
  /** The chat model's configuration: embeddings use the same OpenAI-compatible endpoint and key. */
  llmConfig: LlmConfig | null;
  logger?: Logger;
  corpusDir?: string;
  cache?: CacheOptions<Retrieval>;
  /** Replaces the OpenAI-compatible client (tests). */
  embedder?: TextEmbedder;
}

function embedderFor(options: KnowledgeBaseOptions): TextEmbedder | null {
  if (options.embedder) return options.embedder;
  const model = options.settings.SERVICE_EMBEDDINGS_MODEL_NAME;
  if (!model) return null;
  if (!options.llmConfig) {
    throw new ConfigError(
      "SERVICE_EMBEDDINGS_MODEL_NAME is set but SERVICE_LLM_MODEL_NAME is not: embeddings use the language model's endpoint (SERVICE_LLM_BASE_URL, SERVICE_LLM_API_KEY)",
    );
  }
  return createOpenAiEmbedder({
    model,
    baseUrl: options.llmConfig.baseUrl,
    apiKey: options.llmConfig.apiKey,
    timeoutMs: options.settings.SERVICE_LLM_TIMEOUT_MS,
    maxRetries: options.settings.SERVICE_LLM_MAX_RETRIES,
  });
}

/**
 * Builds the knowledge base at start-up: reads and validates the corpus, indexes it for full-text ranking and,
 * when an embeddings model is configured, for hybrid ranking (the corpus is embedded on first use). Under
 * `npm start` the shipped corpus comes indexed by the build (knowledge/snapshot.ts); a corpus directory given
 * here is always read and indexed.
 */
export function createKnowledgeBase(options: KnowledgeBaseOptions): KnowledgeBase {
  const started = performance.now();
  const snapshot = options.corpusDir === undefined ? readSnapshot() : null;
  const { docs, fullText } = snapshot ?? indexCorpus(options.corpusDir);
  const embedder = embedderFor(options);
  const retriever = new Retriever(fullText, embedder ? new DenseIndex(docs, embedder) : null);
  const kb = new KnowledgeBase(docs, retriever, options.cache, (message) => options.logger?.warn(message));
  options.logger?.info("knowledge base ready", {
    documents: docs.length,
    ranking: embedder ? "hybrid" : "full_text",
    index: snapshot ? "built" : "corpus",
    ms: Math.round(performance.now() - started),
  });
  return kb;
}
