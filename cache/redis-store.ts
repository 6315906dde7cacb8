import type { Redis } from "ioredis";
import type { CacheStore, StoreLimits, StoreStats } from "./store.js";

/**
 * Reads a value and, when it is there, makes it the most recently used. A value whose key expired (its TTL is
 * Redis' own) is dropped from the index and the byte count here. Answers {found, value, entries, bytes, evictions}.
 */
const GET = `
local p, key = ARGV[1], ARGV[2]
local lru, sizes, meta = p .. ':lru', p .. ':size', p .. ':meta'
local value = redis.call('GET', p .. ':v:' .. key)
if value then
  redis.call('ZADD', lru, redis.call('HINCRBY', meta, 'clock', 1), key)
else
  local size = redis.call('HGET', sizes, key)
  if size then
    redis.call('ZREM', lru, key)
    redis.call('HDEL', sizes, key)
    redis.call('HINCRBY', meta, 'bytes', -tonumber(size))
  end
end
local m = redis.call('HMGET', meta, 'bytes', 'evictions')
return {value and 1 or 0, value or '', redis.call('ZCARD', lru), tonumber(m[1] or '0'), tonumber(m[2] or '0')}
`;

/**
 * Stores a value with its TTL as the most recently used, then drops least recently used entries until both
 * bounds hold. Recency is a counter in the store's meta hash, so order is exact even within one millisecond and
 * agreed by every replica. A value larger than the byte bound is not stored. Answers {entries, bytes, evictions}.
 */
const SET = `
local p, key, value = ARGV[1], ARGV[2], ARGV[3]
local ttl, maxEntries, maxBytes = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local lru, sizes, meta = p .. ':lru', p .. ':size', p .. ':meta'
local size = string.len(value)
if size <= maxBytes then
  local old = redis.call('HGET', sizes, key)
  if old then redis.call('HINCRBY', meta, 'bytes', -tonumber(old)) end
  redis.call('SET', p .. ':v:' .. key, value, 'PX', ttl)
  redis.call('HSET', sizes, key, size)
  redis.call('HINCRBY', meta, 'bytes', size)
  redis.call('ZADD', lru, redis.call('HINCRBY', meta, 'clock', 1), key)
end
local evicted = 0
while redis.call('ZCARD', lru) > maxEntries or tonumber(redis.call('HGET', meta, 'bytes') or '0') > maxBytes do
  local oldest = redis.call('ZRANGE', lru, 0, 0)[1]
  if not oldest then break end
  local s = redis.call('HGET', sizes, oldest)
  redis.call('ZREM', lru, oldest)
  redis.call('HDEL', sizes, oldest)
  if s then redis.call('HINCRBY', meta, 'bytes', -tonumber(s)) end
  -- An entry that had already expired leaves the index without counting as an eviction.
  if redis.call('DEL', p .. ':v:' .. oldest) == 1 then evicted = evicted + 1 end
end
if evicted > 0 then redis.call('HINCRBY', meta, 'evictions', evicted) end
local m = redis.call('HMGET', meta, 'bytes', 'evictions')
return {redis.call('ZCARD', lru), tonumber(m[1] or '0'), tonumber(m[2] or '0')}
`;

export interface RedisStoreOptions<V> extends StoreLimits {
  client: Redis;
  /** Key prefix of this cache in Redis (one per cache): `<prefix>:v:<key>` values, `<prefix>:lru|size|meta` the index. */
  prefix: string;
  encode: (value: V) => string;
  decode: (text: string) => V;
}

/**
 * A store in Redis shared by every replica. Each value is its own key with a per-key TTL (PX); a sorted set
 * ranks keys by last use and a hash holds their sizes, so the two Lua scripts above keep the entry and byte
 * bounds with least-recently-used eviction atomically. Bytes are those of the encoded value. Errors (Redis
 * gone, a command time-out) are thrown: the fallback store above decides what to do.
 */
export class RedisCacheStore<V> implements CacheStore<V> {
  private snapshot: StoreStats = { entries: 0, bytes: 0, evictions: 0 };

  constructor(private readonly options: RedisStoreOptions<V>) {}

  async get(key: string): Promise<V | undefined> {
    const [found, text, entries, bytes, evictions] = (await this.options.client.eval(GET, 0, this.options.prefix, key)) as [number, string, number, number, number];
    this.snapshot = { entries, bytes, evictions };
    if (found !== 1) return undefined;
    try {
      return this.options.decode(text);
    } catch {
      // A value written by an incompatible release reads as a miss and is replaced by the next set.
      return undefined;
    }
  }

  async set(key: string, value: V): Promise<void> {
    const { client, prefix, ttlMs, maxEntries, maxBytes } = this.options;
    const [entries, bytes, evictions] = (await client.eval(SET, 0, prefix, key, this.options.encode(value), ttlMs, maxEntries, maxBytes)) as [number, number, number];
    this.snapshot = { entries, bytes, evictions };
  }

  /** As of this replica's last command: the store is shared, so other replicas move it too. */
  stats(): StoreStats {
    return { ...this.snapshot };
  }
}
