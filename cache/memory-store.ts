import { LRUCache } from "lru-cache";
import type { CacheStore, StoreLimits, StoreStats } from "./store.js";

export interface MemoryStoreOptions<V> extends StoreLimits {
  /** Size of a value as it counts against maxBytes. */
  size: (value: V) => number;
  /** Milliseconds clock for TTL checks; tests inject one. */
  clock?: { now(): number } | undefined;
}

/** The in-process store: lru-cache holding the values themselves (no copy, no serialization). */
export class MemoryCacheStore<V extends {}> implements CacheStore<V> {
  private readonly lru: LRUCache<string, V>;
  private evictions = 0;

  constructor(options: MemoryStoreOptions<V>) {
    this.lru = new LRUCache<string, V>({
      max: options.maxEntries,
      maxSize: options.maxBytes,
      sizeCalculation: (value) => Math.max(1, options.size(value)),
      ttl: options.ttlMs,
      // Check the clock on every read (no 1 ms memo), so an injected clock is exact.
      ttlResolution: 0,
      ...(options.clock ? { perf: options.clock } : {}),
      dispose: (_value, _key, reason) => {
        if (reason === "evict") this.evictions++;
      },
    });
  }

  async get(key: string): Promise<V | undefined> {
    return this.lru.get(key);
  }

  async set(key: string, value: V): Promise<void> {
    this.lru.set(key, value);
  }

  stats(): StoreStats {
    return { entries: this.lru.size, bytes: this.lru.calculatedSize, evictions: this.evictions };
  }
}
