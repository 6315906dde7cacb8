import { BaseCache, deserializeStoredGeneration, serializeGeneration } from "@langchain/core/caches";
import type { Generation } from "@langchain/core/outputs";
import { MemoryCacheStore } from "../cache/memory-store.js";
import type { CacheStore } from "../cache/store.js";

export interface LlmCacheOptions {
  /** Where answers live (Redis when shared, cache/create-stores.ts); default: in-process within the limits below. */
  store?: CacheStore<string>;
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
 * LangChain's LLM cache on a bounded LRU store of serialized copies: each hit is a fresh message, so a hit
 * never aliases (and zeroes the token counts of) an earlier answer, as `InMemoryCache` does. Counts its hits and
 * misses for the process; per-request counts come from the usage collector.
 */
export class LruLlmCache extends BaseCache<Generation[]> {
  private readonly store: CacheStore<string>;
  hits = 0;
  misses = 0;

  constructor(options: LlmCacheOptions = {}) {
    super();
    this.store =
      options.store ??
      new MemoryCacheStore<string>({
        maxEntries: options.max ?? LLM_CACHE_DEFAULTS.max,
        maxBytes: options.maxChars ?? LLM_CACHE_DEFAULTS.maxChars,
        ttlMs: options.ttlMs ?? LLM_CACHE_DEFAULTS.ttlMs,
        size: (value) => value.length,
        clock: options.clock,
      });
  }

  async lookup(prompt: string, llmKey: string): Promise<Generation[] | null> {
    const stored = await this.store.get(this.keyEncoder(prompt, llmKey));
    if (stored === undefined) {
      this.misses++;
      return null;
    }
    this.hits++;
    return (JSON.parse(stored) as ReturnType<typeof serializeGeneration>[]).map((g) => deserializeStoredGeneration(g) as Generation);
  }

  async update(prompt: string, llmKey: string, value: Generation[]): Promise<void> {
    await this.store.set(this.keyEncoder(prompt, llmKey), JSON.stringify(value.map(serializeGeneration)));
  }

  get size(): number {
    return this.store.stats().entries;
  }
}
