import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CACHE_LIMITS, cacheKey, KnowledgeCache, serializedBytes } from "../../../knowledge/cache.js";

const value = (n: number, pad = 0) => ({ n, pad: "x".repeat(pad) });

function manualClock(start = 1_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("knowledge cache key", () => {
  it("is the SHA-256 of query, domain and query type", () => {
    const expected = createHash("sha256").update(JSON.stringify(["overfitting", "training", "diagnostic"])).digest("hex");
    expect(cacheKey("overfitting", "training", "diagnostic")).toBe(expected);
    expect(cacheKey("overfitting", "training", "diagnostic")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("differs when any part differs, and cannot be forged by moving text between parts", () => {
    const keys = new Set([
      cacheKey("a", null, null),
      cacheKey("a", "training", null),
      cacheKey("a", null, "solution"),
      cacheKey("a", "training", "solution"),
      cacheKey("b", "training", "solution"),
      cacheKey("a training", null, null),
    ]);
    expect(keys.size).toBe(6);
  });
});

describe("knowledge cache", () => {
  it("uses the spec §8 limits by default", () => {
    expect(CACHE_LIMITS).toEqual({ maxEntries: 1000, maxBytes: 1024 ** 3, ttlMs: 86_400_000 });
  });

  it("serves a second lookup from the cache and counts hits and misses", async () => {
    const cache = new KnowledgeCache<{ n: number }>();
    let calls = 0;
    const fetch = async () => ({ n: ++calls });
    expect(await cache.getOrFetch("k", fetch)).toEqual({ n: 1 });
    expect(await cache.getOrFetch("k", fetch)).toEqual({ n: 1 });
    expect(calls).toBe(1);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, deduplicated: 0, entries: 1 });
  });

  it("evicts the least recently used entry beyond the entry limit", async () => {
    const cache = new KnowledgeCache<{ n: number; pad: string }>({ maxEntries: 3 });
    for (const k of ["a", "b", "c"]) await cache.getOrFetch(k, async () => value(1));
    await cache.getOrFetch("a", async () => value(99)); // touch a: b is now the oldest
    await cache.getOrFetch("d", async () => value(4));
    expect(cache.stats()).toMatchObject({ entries: 3, evictions: 1 });
    let refetched = false;
    await cache.getOrFetch("b", async () => ((refetched = true), value(2)));
    expect(refetched).toBe(true);
    expect(await cache.getOrFetch("a", async () => value(0))).toEqual(value(1));
  });

  it("bounds the bytes of serialized results, computed from the JSON of each value", async () => {
    const one = value(1, 100);
    const size = serializedBytes(one);
    expect(size).toBe(Buffer.byteLength(JSON.stringify(one)));
    const cache = new KnowledgeCache<{ n: number; pad: string }>({ maxBytes: size * 2 + 10 });
    await cache.getOrFetch("a", async () => value(1, 100));
    await cache.getOrFetch("b", async () => value(2, 100));
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: size * 2 });
    await cache.getOrFetch("c", async () => value(3, 100));
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: size * 2, evictions: 1 });
    // A value larger than the whole budget is returned but never stored.
    expect(await cache.getOrFetch("huge", async () => value(4, 10_000))).toEqual(value(4, 10_000));
    expect(cache.stats().bytes).toBeLessThanOrEqual(size * 2 + 10);
  });

  it("expires entries after the time-to-live on the injected clock", async () => {
    const clock = manualClock();
    const cache = new KnowledgeCache<{ n: number }>({ ttlMs: 1000, clock });
    let calls = 0;
    const fetch = async () => ({ n: ++calls });
    await cache.getOrFetch("k", fetch);
    clock.advance(999);
    expect(await cache.getOrFetch("k", fetch)).toEqual({ n: 1 });
    clock.advance(2);
    expect(await cache.getOrFetch("k", fetch)).toEqual({ n: 2 });
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 2 });
  });

  it("keeps an entry for 24 hours by default", async () => {
    const clock = manualClock();
    const cache = new KnowledgeCache<{ n: number }>({ clock });
    let calls = 0;
    const fetch = async () => ({ n: ++calls });
    await cache.getOrFetch("k", fetch);
    clock.advance(24 * 3600 * 1000 - 1);
    await cache.getOrFetch("k", fetch);
    expect(calls).toBe(1);
    clock.advance(2);
    await cache.getOrFetch("k", fetch);
    expect(calls).toBe(2);
  });

  it("fetches concurrent identical lookups once", async () => {
    const cache = new KnowledgeCache<{ n: number }>();
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const fetch = async () => {
      calls++;
      await gate;
      return { n: calls };
    };
    const pending = Array.from({ length: 5 }, () => cache.getOrFetch("same", fetch));
    const other = cache.getOrFetch("other", fetch);
    release();
    const results = await Promise.all(pending);
    await other;
    expect(calls).toBe(2);
    expect(new Set(results.map((r) => r.n)).size).toBe(1);
    expect(cache.stats()).toMatchObject({ misses: 2, deduplicated: 4, hits: 0, entries: 2 });
  });

  it("does not keep a failed fetch or a value the caller rejects", async () => {
    const cache = new KnowledgeCache<{ n: number }>();
    await expect(cache.getOrFetch("k", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await cache.getOrFetch("k", async () => ({ n: 1 }), () => false)).toEqual({ n: 1 });
    expect(cache.stats().entries).toBe(0);
    expect(await cache.getOrFetch("k", async () => ({ n: 2 }))).toEqual({ n: 2 });
  });

  it("refuses limits that are not positive integers at construction", () => {
    expect(() => new KnowledgeCache({ maxEntries: 0 })).toThrow(/maxEntries must be a positive integer/);
    expect(() => new KnowledgeCache({ maxBytes: 1.5 })).toThrow(/maxBytes/);
    expect(() => new KnowledgeCache({ ttlMs: -1 })).toThrow(/ttlMs/);
  });
});
