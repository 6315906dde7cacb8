import { BaseCache, deserializeStoredGeneration, serializeGeneration } from "@langchain/core/caches";
import type { Generation } from "@langchain/core/outputs";
import { LRUCache } from "lru-cache";

export interface LlmCacheOptions {
  /** Entries kept; the least recently used goes first. */
  max?: number;
  /** Total characters of stored answers. */
  maxChars?: number;
  /** Lifetime of an entry in ms. */
  ttlMs?: number;
  /** Clock for the TTL (lru-cache's `perf`), injectable in tests. */
  clock?: { now(): number };
}

export const LLM_CACHE_DEFAULTS = { max: 1000, maxChars: 64 * 1024 * 1024, ttlMs: 24 * 60 * 60 * 1000 } as const;

/**
 * LangChain's LLM cache on a bounded LRU that stores serialized copies: each hit is a fresh message, so a hit
 * never aliases (and zeroes the token counts of) an earlier answer, as `InMemoryCache` does. Counts its hits and
 * misses for the process; per-request counts come from the usage collector.
 */
export class LruLlmCache extends BaseCache<Generation[]> {
  private readonly lru: LRUCache<string, string>;
  hits = 0;
  misses = 0;

  constructor(options: LlmCacheOptions = {}) {
    super();
    this.lru = new LRUCache<string, string>({
      max: options.max ?? LLM_CACHE_DEFAULTS.max,
      maxSize: options.maxChars ?? LLM_CACHE_DEFAULTS.maxChars,
      sizeCalculation: (value) => Math.max(1, value.length),
      ttl: options.ttlMs ?? LLM_CACHE_DEFAULTS.ttlMs,
      // Read the clock on every access instead of a timer-refreshed copy, so an injected clock is exact.
      ttlResolution: 0,
      ...(options.clock && { perf: options.clock }),
    });
  }

  async lookup(prompt: string, llmKey: string): Promise<Generation[] | null> {
    const stored = this.lru.get(this.keyEncoder(prompt, llmKey));
    if (stored === undefined) {
      this.misses++;
      return null;
    }
    this.hits++;
    return (JSON.parse(stored) as ReturnType<typeof serializeGeneration>[]).map((g) => deserializeStoredGeneration(g) as Generation);
  }

  async update(prompt: string, llmKey: string, value: Generation[]): Promise<void> {
    this.lru.set(this.keyEncoder(prompt, llmKey), JSON.stringify(value.map(serializeGeneration)));
  }

  get size(): number {
    return this.lru.size;
  }
}
