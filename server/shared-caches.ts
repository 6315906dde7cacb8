import { FallbackCacheStore } from "../cache/fallback-store.js";
import { MemoryCacheStore } from "../cache/memory-store.js";
import { RedisCacheStore } from "../cache/redis-store.js";
import type { CacheStore, StoreLimits } from "../cache/store.js";
import type { Logger } from "../config/logger.js";
import { CACHE_LIMITS, serializedBytes } from "../knowledge/cache.js";
import type { Retrieval } from "../knowledge/retriever.js";
import { LLM_CACHE_DEFAULTS } from "../llm/cache.js";
import { connectRedis, type RedisLink } from "../redis/link.js";

/** Key prefixes in Redis, one per cache; the version changes when what is stored does. */
export const REDIS_CACHE_PREFIXES = { knowledge: "mld:v1:knowledge", llm: "mld:v1:llm" } as const;

/** The stores the knowledge and LLM caches use: undefined (their in-process default) without Redis. */
export interface SharedCaches {
  knowledge: CacheStore<Retrieval> | undefined;
  llm: CacheStore<string> | undefined;
  /** The connection behind them, for /readyz; null without SERVICE_REDIS_URL. */
  redis: RedisLink | null;
}

function storeIn<V extends {}>(link: RedisLink, prefix: string, limits: StoreLimits, codec: { encode: (v: V) => string; decode: (t: string) => V; size: (v: V) => number }): CacheStore<V> {
  const shared = new RedisCacheStore<V>({ client: link.client, prefix, ...limits, encode: codec.encode, decode: codec.decode });
  return new FallbackCacheStore(shared, new MemoryCacheStore<V>({ ...limits, size: codec.size }), link);
}

/**
 * Chosen once at start-up: with SERVICE_REDIS_URL both caches live in Redis, shared by every replica with the
 * same bounds and TTL, each falling back to its own in-process store while Redis is unavailable; without it,
 * nothing changes (undefined: each cache builds its in-process default).
 */
export function createSharedCaches(redisUrl: string | undefined, logger: Logger): SharedCaches {
  if (!redisUrl) return { knowledge: undefined, llm: undefined, redis: null };
  const redis = connectRedis(redisUrl, logger);
  const json = { encode: (v: Retrieval) => JSON.stringify(v), decode: (t: string) => JSON.parse(t) as Retrieval, size: serializedBytes };
  const text = { encode: (v: string) => v, decode: (t: string) => t, size: (v: string) => v.length };
  return {
    knowledge: storeIn(redis, REDIS_CACHE_PREFIXES.knowledge, CACHE_LIMITS, json),
    llm: storeIn(redis, REDIS_CACHE_PREFIXES.llm, { maxEntries: LLM_CACHE_DEFAULTS.max, maxBytes: LLM_CACHE_DEFAULTS.maxChars, ttlMs: LLM_CACHE_DEFAULTS.ttlMs }, text),
    redis,
  };
}
