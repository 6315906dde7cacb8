import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FallbackCacheStore } from "../../../cache/fallback-store.js";
import { MemoryCacheStore } from "../../../cache/memory-store.js";
import { RedisCacheStore } from "../../../cache/redis-store.js";
import type { StoreLimits } from "../../../cache/store.js";
import { createLogger } from "../../../config/logger.js";
import { KnowledgeCache } from "../../../knowledge/cache.js";
import { connectRedis } from "../../../redis/link.js";
import { type RedisServer, startRedisServer } from "../../support/redis-server.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const text = { encode: (v: string) => v, decode: (t: string) => t };
let server: RedisServer;
let client: Redis;
let n = 0;

/** A store with its own prefix, so each test starts empty. */
function store(limits: Partial<StoreLimits>, on: Redis = client, prefix = `test:${++n}`) {
  return new RedisCacheStore<string>({ client: on, prefix, maxEntries: 1000, maxBytes: 1 << 20, ttlMs: DAY_MS, ...limits, ...text });
}

beforeAll(async () => {
  server = await startRedisServer();
  client = new Redis(server.url);
});
afterAll(async () => {
  client?.disconnect();
  await server?.stop();
});

describe("RedisCacheStore (real redis-server)", () => {
  it("evicts the least recently used entry past the entry bound", async () => {
    const s = store({ maxEntries: 3 });
    for (const k of ["a", "b", "c"]) await s.set(k, k.repeat(10));
    expect(await s.get("a")).toBe("aaaaaaaaaa"); // a used: b is now the oldest
    await s.set("d", "d".repeat(10));
    expect(await s.get("b")).toBeUndefined();
    expect(await s.get("a")).toBe("aaaaaaaaaa");
    expect(await s.get("c")).toBe("cccccccccc");
    expect(s.stats()).toEqual({ entries: 3, bytes: 30, evictions: 1 });
  });

  it("keeps the byte bound, and never stores a value larger than it", async () => {
    const s = store({ maxBytes: 250 });
    for (let i = 0; i < 10; i++) {
      await s.set(`k${i}`, "x".repeat(100));
      expect(s.stats().bytes).toBeLessThanOrEqual(250);
    }
    expect(s.stats()).toEqual({ entries: 2, bytes: 200, evictions: 8 });
    expect(await s.get("k9")).toBe("x".repeat(100));
    expect(await s.get("k7")).toBeUndefined();
    await s.set("huge", "y".repeat(251));
    expect(await s.get("huge")).toBeUndefined();
    expect(await s.get("k9")).toBe("x".repeat(100));
  });

  it("counts bytes as UTF-8 and replaces a key's size when it is set again", async () => {
    const s = store({});
    await s.set("k", "é".repeat(10));
    expect(s.stats().bytes).toBe(20);
    await s.set("k", "ab");
    expect(s.stats()).toMatchObject({ entries: 1, bytes: 2 });
  });

  it("gives every value the TTL as a Redis expiry, and drops an expired one from the bounds", async () => {
    const prefix = `test:${++n}`;
    const s = store({}, client, prefix);
    await s.set("k", "v");
    const ttl = await client.pttl(`${prefix}:v:k`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(DAY_MS);
    const short = store({ ttlMs: 1 });
    await short.set("gone", "v");
    await new Promise((r) => setTimeout(r, 20));
    expect(await short.get("gone")).toBeUndefined();
    expect(short.stats()).toEqual({ entries: 0, bytes: 0, evictions: 0 });
  });

  it("is shared: what one replica's store wrote, another's reads, under one bound", async () => {
    const other = new Redis(server.url);
    try {
      const prefix = `test:${++n}`;
      const a = store({ maxEntries: 2 }, client, prefix);
      const b = store({ maxEntries: 2 }, other, prefix);
      await a.set("q1", "answer 1");
      expect(await b.get("q1")).toBe("answer 1");
      await b.set("q2", "answer 2");
      await a.set("q3", "answer 3");
      expect(a.stats().entries).toBe(2);
      expect(await b.get("q1")).toBeUndefined();
    } finally {
      other.disconnect();
    }
  });

  it("under the knowledge cache: a value fetched once is a hit from the shared store", async () => {
    const prefix = `test:${++n}`;
    const json = { encode: (v: { n: number }) => JSON.stringify(v), decode: (t: string) => JSON.parse(t) as { n: number } };
    const limits = { maxEntries: 10, maxBytes: 1 << 20, ttlMs: DAY_MS };
    const a = new KnowledgeCache({ store: new RedisCacheStore({ client, prefix, ...limits, ...json }) });
    const b = new KnowledgeCache({ store: new RedisCacheStore({ client, prefix, ...limits, ...json }) });
    let fetches = 0;
    const fetch = async () => ({ n: ++fetches });
    expect(await a.getOrFetch("key", fetch)).toEqual({ n: 1 });
    expect(await b.getOrFetch("key", fetch)).toEqual({ n: 1 });
    expect(fetches).toBe(1);
    expect(b.stats()).toMatchObject({ hits: 1, misses: 0, entries: 1 });
  });
});

describe("FallbackCacheStore over a Redis that goes away", () => {
  it("keeps answering from memory with a warning, and shares again once Redis is back", async () => {
    const redis = await startRedisServer();
    const lines: string[] = [];
    const link = connectRedis(redis.url, createLogger("info", {}, (line) => lines.push(line)));
    try {
      await new Promise<void>((resolve) => link.client.once("ready", () => resolve()));
      const limits = { maxEntries: 10, maxBytes: 1 << 20, ttlMs: DAY_MS };
      const s = new FallbackCacheStore(store(limits, link.client, "fallback"), new MemoryCacheStore<string>({ ...limits, size: (v) => v.length }), link);
      await s.set("shared", "in redis");
      expect(await s.get("shared")).toBe("in redis");
      await redis.kill();
      // Whether the client has noticed yet or the command fails, the lookup is answered.
      expect(await s.get("shared")).toBeUndefined();
      await s.set("local", "in memory");
      expect(await s.get("local")).toBe("in memory");
      expect(link.available).toBe(false);
      expect(link.problem).toBeTruthy();
      const warnings = lines.filter((l) => l.includes('"level":"warn"') && l.includes("Redis unavailable"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`127.0.0.1:${redis.port}`);
    } finally {
      await link.close();
      await redis.stop();
    }
  });
});
