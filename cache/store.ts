/** What a cache store holds now; the hit and miss counts belong to the cache above it. */
export interface StoreStats {
  entries: number;
  /** Bytes of stored values as the store measures them. */
  bytes: number;
  /** Entries dropped to stay within the entry or byte limit. */
  evictions: number;
}

/**
 * Where a cache keeps its entries: bounded by entries and bytes with least-recently-used eviction and a
 * time-to-live. In-process (memory-store.ts) or in Redis, shared by replicas (redis-store.ts); which one is
 * chosen once at start-up (create-stores.ts), and the caches above never know.
 */
export interface CacheStore<V> {
  get(key: string): Promise<V | undefined>;
  /** A value larger than the byte bound is not stored. */
  set(key: string, value: V): Promise<void>;
  stats(): StoreStats;
}

/** The bounds of one store. */
export interface StoreLimits {
  maxEntries: number;
  maxBytes: number;
  ttlMs: number;
}
