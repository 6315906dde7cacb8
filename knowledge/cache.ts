import { createHash } from "node:crypto";
import { MemoryCacheStore } from "../cache/memory-store.js";
import type { CacheStore } from "../cache/store.js";

/** Spec §8 limits of the knowledge cache. */
export const CACHE_LIMITS = { maxEntries: 1000, maxBytes: 1024 ** 3, ttlMs: 24 * 60 * 60 * 1000 } as const;

export interface CacheOptions<V extends object = object> {
  /** Where entries live (Redis when shared, cache/create-stores.ts); default: in-process within the limits below. */
  store?: CacheStore<V>;
  maxEntries?: number;
  maxBytes?: number;
  ttlMs?: number;
  /** Milliseconds clock for TTL checks; tests inject one. */
  clock?: { now(): number };
}

export interface CacheStats {
  hits: number;
  misses: number;
  /** Lookups that joined one already in flight for the same key (reading the store or fetching) instead of starting another. */
  deduplicated: number;
  /** Entries dropped to stay within the entry or byte limit. */
  evictions: number;
  entries: number;
  /** Bytes of serialized results held. */
  bytes: number;
}

/** The cache key: SHA-256 of the query, domain and query type (spec §8). */
export function cacheKey(query: string, domain: string | null, type: string | null): string {
  return createHash("sha256").update(JSON.stringify([query, domain, type])).digest("hex");
}

/** Size of a result as stored: its UTF-8 JSON serialization. */
export function serializedBytes(value: unknown): number {
  return Math.max(1, Buffer.byteLength(JSON.stringify(value) ?? "", "utf8"));
}

function positiveInt(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`knowledge cache: ${name} must be a positive integer, got ${value}`);
  return value;
}

/**
 * Least-recently-used cache of knowledge results, bounded by entry count and by bytes of serialized results,
 * with a time-to-live; concurrent lookups of one key share a single fetch.
 */
export class KnowledgeCache<V extends object> {
  private readonly store: CacheStore<V>;
  private readonly inFlight = new Map<string, Promise<V>>();
  private readonly counts = { hits: 0, misses: 0, deduplicated: 0 };

  constructor(options: CacheOptions<V> = {}) {
    this.store =
      options.store ??
      new MemoryCacheStore<V>({
        maxEntries: positiveInt("maxEntries", options.maxEntries ?? CACHE_LIMITS.maxEntries),
        maxBytes: positiveInt("maxBytes", options.maxBytes ?? CACHE_LIMITS.maxBytes),
        ttlMs: positiveInt("ttlMs", options.ttlMs ?? CACHE_LIMITS.ttlMs),
        size: serializedBytes,
        clock: options.clock,
      });
  }

  /**
   * The cached value of `key`, or the result of `fetch` (shared with concurrent callers of the same key).
   * `keep(value)` false leaves a fetched value uncached (e.g. a degraded result).
   */
  async getOrFetch(key: string, fetch: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const pending = this.inFlight.get(key);
    if (pending) {
      this.counts.deduplicated++;
      return pending;
    }
    // Registered before the store is read, so a concurrent lookup joins this one whether it hits or fetches.
    const work = this.lookup(key, fetch, keep).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, work);
    return work;
  }

  private async lookup(key: string, fetch: () => Promise<V>, keep: (value: V) => boolean): Promise<V> {
    const cached = await this.store.get(key);
    if (cached !== undefined) {
      this.counts.hits++;
      return cached;
    }
    this.counts.misses++;
    const value = await fetch();
    if (keep(value)) await this.store.set(key, value);
    return value;
  }

  stats(): CacheStats {
    return { ...this.counts, ...this.store.stats() };
  }
}
