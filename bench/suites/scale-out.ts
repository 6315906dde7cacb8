import { Redis } from "ioredis";
import { FallbackCacheStore } from "../../cache/fallback-store.js";
import { MemoryCacheStore } from "../../cache/memory-store.js";
import { RedisCacheStore } from "../../cache/redis-store.js";
import { createLogger } from "../../config/logger.js";
import { BullmqJobQueue } from "../../jobs/bullmq-queue.js";
import type { CompareSteps, JobRunner } from "../../jobs/job.js";
import { MemoryJobQueue } from "../../jobs/memory-queue.js";
import type { JobQueue } from "../../jobs/queue.js";
import { LLM_CACHE_DEFAULTS, LruLlmCache } from "../../llm/cache.js";
import { connectRedis } from "../../redis/link.js";
import { startRedisServer } from "../../test/support/redis-server.js";
import { pollUntil, timedPost } from "../lib/http.js";
import type { BenchProfile } from "../lib/options.js";
import { type BenchResult, ratioOf } from "../lib/result.js";
import { readSampleRequest } from "../lib/sample.js";
import { type RunningService, startService } from "../lib/service.js";
import { median, quantile, round } from "../lib/stats.js";

/** Clients sending analyses back to back, spread over the replicas in turn. */
const CLIENTS = 4;
const CACHE_LOOKUPS = 2000;
const JOBS = 200;
/** One and two replicas are measured in turn this many times: the machine's load drifts, alternation spreads it. */
const ROUNDS = 3;

/** Completed offline analyses per second over `seconds`, CLIENTS at a time, each client going round the replicas. */
async function throughput(urls: string[], body: string, seconds: number): Promise<number> {
  const ends = performance.now() + seconds * 1000;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = client; performance.now() < ends; i++) {
        const res = await timedPost(`${urls[i % urls.length]}/v1/analyse`, body);
        if (res.status !== 200) throw new Error(`an analysis answered ${res.status}: ${res.text.slice(0, 200)}`);
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

/** A model answer as the LLM cache stores it: one generation of about 2 KB of JSON text. */
function cachedAnswer() {
  const text = JSON.stringify({ summary: "The validation loss rises from epoch 12 while the training loss keeps falling. ".repeat(24) });
  return [{ text, message: undefined }] as never;
}

/** Median and p99 of one cache hit (µs): the same prompt looked up again and again. */
async function cacheHitMicros(cache: LruLlmCache): Promise<{ p50: number; p99: number }> {
  await cache.update("prompt", "llm-key", cachedAnswer());
  const samples: number[] = [];
  for (let i = 0; i < CACHE_LOOKUPS; i++) {
    const t = performance.now();
    if (!(await cache.lookup("prompt", "llm-key"))) throw new Error("the cached answer was not found");
    samples.push((performance.now() - t) * 1000);
  }
  return { p50: median(samples), p99: quantile(samples, 0.99) };
}

/** Milliseconds per job through a queue whose runner does nothing: submission to done, JOBS in a row, one worker. */
async function queueOverheadMs(queue: JobQueue): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < JOBS; i++) await queue.submit({ id: `bench-${process.pid}-${started}-${i}`, body: {} });
  const last = `bench-${process.pid}-${started}-${JOBS - 1}`;
  const finished = await pollUntil(async () => (await queue.get(last))?.state === "done", 120_000, 1);
  if (!finished) throw new Error("the jobs did not finish within 2 minutes");
  return (performance.now() - started) / JOBS;
}

/** Comparison steps that do nothing: the plan lists JOBS runs, each run and the conclusion are done at once. */
const noopCompare: CompareSteps = {
  isCompare: (body) => typeof body === "object" && body !== null && "runs" in body,
  plan: async () => ({ head: {}, runs: Array.from({ length: JOBS }, (_, i) => i) }),
  analyseRun: async (_id, input) => ({ state: "done", result: input }),
  conclude: async (_request, runs) => ({ state: "done", result: { runs: runs.length } }),
};

/** Milliseconds per run of one comparison job of JOBS runs fanned out as BullMQ child jobs (one run worker): submission to done. */
async function fanOutOverheadMs(queue: JobQueue): Promise<number> {
  const id = `bench-compare-${process.pid}-${performance.now()}`;
  const started = performance.now();
  await queue.submit({ id, body: { runs: [] } });
  const finished = await pollUntil(async () => (await queue.get(id))?.state === "done", 120_000, 1);
  if (!finished) throw new Error("the comparison job did not finish within 2 minutes");
  return (performance.now() - started) / JOBS;
}

/**
 * scale_out (issue #17): offline analyses per second with one and with two replicas sharing one redis-server,
 * an LLM cache hit in-process and in Redis, and the queue's own cost per job, in-process and BullMQ.
 */
export async function benchScaleOut(profile: BenchProfile): Promise<BenchResult> {
  const redis = await startRedisServer();
  const replicas: RunningService[] = [];
  try {
    const env = { SERVICE_REDIS_URL: redis.url, SERVICE_LOG_LEVEL: "warn" };
    for (const name of ["scale-out-replica-1", "scale-out-replica-2"]) replicas.push(await startService({ name, env }));
    const body = readSampleRequest();
    const urls = replicas.map((r) => r.url);
    await throughput(urls, body, 1); // warm-up of both
    const ones: number[] = [];
    const twos: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      ones.push(await throughput(urls.slice(0, 1), body, profile.loadSeconds));
      twos.push(await throughput(urls, body, profile.loadSeconds));
    }
    const [one, two] = [median(ones), median(twos)];

    const limits = { maxEntries: LLM_CACHE_DEFAULTS.max, maxBytes: LLM_CACHE_DEFAULTS.maxChars, ttlMs: LLM_CACHE_DEFAULTS.ttlMs };
    const memoryHit = await cacheHitMicros(new LruLlmCache());
    const link = connectRedis(redis.url, createLogger("silent"));
    await new Promise<void>((resolve) => link.client.once("ready", () => resolve()));
    const shared = new RedisCacheStore<string>({ client: link.client, prefix: "bench:llm", ...limits, encode: (v) => v, decode: (t) => t });
    const redisHit = await cacheHitMicros(new LruLlmCache({ store: new FallbackCacheStore(shared, new MemoryCacheStore<string>({ ...limits, size: (v) => v.length }), link) }));
    await link.close();

    const noop: JobRunner = async () => ({ state: "done", result: { findings: [] } });
    const queueLimits = { workers: 1, maxQueued: JOBS, retentionMs: 600_000 };
    const memory = new MemoryJobQueue(noop, queueLimits);
    const memoryJob = await queueOverheadMs(memory);
    await memory.close();
    // Database 1: the replicas' own workers (on database 0) must not take these no-op jobs.
    const bull = new BullmqJobQueue(noop, { ...queueLimits, url: `${redis.url}/1`, logger: createLogger("silent"), attempts: 1, lockMs: 30_000 });
    const bullJob = await queueOverheadMs(bull);
    await bull.close();
    const fanning = new BullmqJobQueue(noop, { ...queueLimits, runWorkers: 1, url: `${redis.url}/2`, logger: createLogger("silent"), attempts: 1, lockMs: 30_000 }, noopCompare);
    const bullRun = await fanOutOverheadMs(fanning);
    await fanning.close();
    const probe = new Redis(redis.url);
    const version = (await probe.info("server")).match(/redis_version:(\S+)/)?.[1] ?? "unknown";
    probe.disconnect();

    return {
      name: "scale_out",
      value: two,
      unit: "analyses/s",
      baseline: one,
      ratio: ratioOf(two, one),
      description: `offline analyses of the sample request per second with two replicas sharing one redis-server ${version}, ${CLIENTS} clients back to back for ${profile.loadSeconds} s going round the replicas, median of ${ROUNDS} rounds alternated with one replica`,
      baselineDescription: "the same clients on one replica (same Redis, same run)",
      note: "Both replicas and the clients share this machine's cores, so a second replica adds only the CPU the first left idle.",
      rows: [
        { metric: "1 replica", value: one, unit: "analyses/s" },
        { metric: "2 replicas", value: two, unit: "analyses/s" },
        { metric: "LLM cache hit, in-process (p50)", value: memoryHit.p50, unit: "µs" },
        { metric: "LLM cache hit, Redis on loopback (p50)", value: redisHit.p50, unit: "µs" },
        { metric: "LLM cache hit, Redis on loopback (p99)", value: redisHit.p99, unit: "µs" },
        { metric: "job queue cost per job, in-process", value: memoryJob, unit: "ms" },
        { metric: "job queue cost per job, BullMQ", value: bullJob, unit: "ms" },
        { metric: "job queue cost per run of a comparison job, BullMQ fan-out", value: bullRun, unit: "ms" },
      ],
      detail: {
        clients: CLIENTS,
        one_replica_per_round: ones.map(round),
        two_replicas_per_round: twos.map(round),
        seconds: profile.loadSeconds,
        cache_lookups: CACHE_LOOKUPS,
        cache_hit_us: { memory: { p50: round(memoryHit.p50), p99: round(memoryHit.p99) }, redis: { p50: round(redisHit.p50), p99: round(redisHit.p99) } },
        jobs: JOBS,
        job_cost_ms: { memory: round(memoryJob), bullmq: round(bullJob), bullmq_per_compare_run: round(bullRun) },
      },
    };
  } finally {
    for (const r of replicas) await r.stop();
    await redis.stop();
  }
}
