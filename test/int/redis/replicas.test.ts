import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { JobView } from "../../../jobs/job.js";
import { type FakeOpenAI, modelAnswer, startFakeOpenAI } from "../../support/fake-openai.js";
import { postJson } from "../../support/http-service.js";
import { type RedisServer, startRedisServer } from "../../support/redis-server.js";
import { startProcess } from "../../support/service-process.js";
import { readSse } from "../../support/sse.js";
import { lrGrid, syntheticRun } from "../../support/synthetic-sweep.js";

const sample = JSON.parse(readFileSync(new URL("../../fixtures/samples/full-image-classification.json", import.meta.url), "utf8")) as Record<string, unknown>;
/** A learning-rate sweep, each configuration with several seeds: `lrs.length * seeds` inline runs. */
const sweep = (lrs: number[], seeds: number, language = "en") => ({
  language,
  runs: lrGrid(lrs, Array.from({ length: seeds }, (_, i) => i + 1), 1e-2).map((r) => syntheticRun(r)),
});

interface Replica {
  child: ChildProcess;
  url: string;
  lines: string[];
}

let redis: RedisServer;
let fake: FakeOpenAI;
/** Model calls wait this long: long enough for a job to be caught running, short enough for a test. */
let modelDelayMs = 0;
const replicas: Replica[] = [];

async function startReplica(): Promise<Replica> {
  const replica = await startProcess({
    SERVICE_REDIS_URL: redis.url,
    SERVICE_LLM_MODEL_NAME: "fake-model",
    SERVICE_LLM_BASE_URL: fake.baseURL,
    SERVICE_LLM_API_KEY: "sk-replica-test",
    SERVICE_LLM_TEMPERATURE: "0",
    SERVICE_LLM_MAX_TOKENS: "2000",
    SERVICE_LLM_CACHE: "1",
    SERVICE_LLM_TRACK_USAGE: "1",
    SERVICE_JOB_WORKERS: "1",
    SERVICE_JOB_LOCK_MS: "2000",
  });
  replicas.push(replica);
  return replica;
}

const metric = async (r: Replica, name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(await (await fetch(`${r.url}/metrics`)).text())?.[1] ?? NaN);
const readyz = async (r: Replica) => (await (await fetch(`${r.url}/readyz`)).json()) as { status: string; failing: string[]; checks: Array<{ name: string; ok: boolean; detail: string }> };
const job = async (r: Replica, id: string) => (await (await fetch(`${r.url}/v1/jobs/${id}`)).json()) as JobView;
const alive = (r: Replica) => r.child.exitCode === null && r.child.signalCode === null;
/** Indices of the job's runs a replica logged as started, or as analysed, since `from` (its own log). */
const runsLogged = (r: Replica, id: string, what: "started" | "analysed", from = 0) =>
  r.lines
    .slice(from)
    .filter((l) => l.includes(id) && l.includes(`comparison run ${what}`))
    .map((l) => (JSON.parse(l) as { run: number }).run);

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

let a: Replica;
let b: Replica;
beforeAll(async () => {
  redis = await startRedisServer();
  fake = await startFakeOpenAI((body) => ({ ...modelAnswer(body), delayMs: modelDelayMs }));
  [a, b] = await Promise.all([startReplica(), startReplica()]);
  // Each replica is `ready` once its Redis connection is.
  for (const r of [a, b]) await until(() => readyz(r), (s) => s.status === "ready");
}, 120_000);
afterAll(async () => {
  for (const r of replicas) r.child.kill("SIGKILL");
  await fake?.close();
  await redis?.stop();
});

describe("two replicas sharing one redis-server", () => {
  it("reports Redis in /readyz", async () => {
    expect((await readyz(a)).checks).toContainEqual({ name: "redis", ok: true, detail: expect.stringMatching(/^connected/) });
  });

  it("a knowledge query ranked by replica A is a cache hit on replica B", async () => {
    const q = "validation loss rises while training loss falls";
    const first = await fetch(`${a.url}/v1/knowledge?q=${encodeURIComponent(q)}`);
    expect(first.status).toBe(200);
    const hitsBefore = await metric(b, "knowledge_cache_hits_total");
    const missesBefore = await metric(b, "knowledge_cache_misses_total");
    const second = await fetch(`${b.url}/v1/knowledge?q=${encodeURIComponent(q)}`);
    expect(await second.json()).toEqual(await first.json());
    expect(await metric(b, "knowledge_cache_hits_total")).toBe(hitsBefore + 1);
    expect(await metric(b, "knowledge_cache_misses_total")).toBe(missesBefore);
  });

  it("an LLM answer cached by replica A is a cache hit on replica B: no model call, usage says so", async () => {
    const first = await postJson(`${a.url}/v1/analyse`, sample);
    expect(first.status).toBe(200);
    expect(first.json.additional_outputs.usage.total.cache_hits).toBe(0);
    const calls = fake.requests.length;
    const second = await postJson(`${b.url}/v1/analyse`, sample);
    expect(second.status).toBe(200);
    expect(fake.requests.length).toBe(calls);
    expect(second.json.additional_outputs.usage.total.cache_hits).toBe(first.json.additional_outputs.usage.total.calls);
    expect(second.json.findings).toEqual(first.json.findings);
    expect(await metric(b, "llm_cache_hits_total")).toBeGreaterThan(0);
    expect(await metric(b, "llm_cache_misses_total")).toBe(0);
  });

  it("a job submitted to replica A is read, done, from replica B, with the synchronous result", async () => {
    const body = { ...sample, model_name: "job-across-replicas" };
    const { status, json } = await postJson(`${a.url}/v1/jobs`, body);
    expect(status).toBe(202);
    const done = await until(() => job(b, json.id), (j) => j.state === "done" || j.state === "failed");
    expect(done.state).toBe("done");
    expect(await job(a, json.id)).toEqual(done);
    const sync = await postJson(`${b.url}/v1/analyse`, body);
    expect((done.result as { findings: unknown }).findings).toEqual(sync.json.findings);
    // Counts are the queue's, refreshed every few seconds by each replica.
    expect(await until(() => metric(b, "jobs_done_total"), (n) => n >= 1)).toBeGreaterThanOrEqual(1);
  });

  it("a 40-run compare job submitted to replica A is worked by both replicas and ends with /v1/compare's result", async () => {
    const body = sweep([1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1, 3e-1], 5);
    expect(body.runs).toHaveLength(40);
    const before = await Promise.all([a, b].map((r) => metric(r, "job_runs_analysed_total")));
    const { status, json } = await postJson(`${a.url}/v1/jobs`, body);
    expect(status).toBe(202);
    // Followed from replica B, which did not take the submission: each run done is an event of its own.
    const events = await readSse(await fetch(`${b.url}/v1/jobs/${json.id}/events`));
    expect(events.at(-1)!.event).toBe("result");
    const states = events.filter((e) => e.event === "state").map((e) => e.data as JobView);
    const running = states.filter((s) => s.state === "running" && s.progress?.runs_total === 40).map((s) => s.progress!.runs_done!);
    expect(running.length).toBeGreaterThan(1);
    expect(running).toEqual([...running].sort((x, y) => x - y));
    expect(running.some((n) => n > 0 && n < 40)).toBe(true);
    const done = await job(a, json.id);
    expect(done).toMatchObject({ state: "done", progress: { runs_done: 40, runs_total: 40, message: "40 of 40 runs analysed" }, error: null });
    expect(done.result).toEqual(events.at(-1)!.data);
    // Each replica's own count says it analysed some of the runs; together they analysed each once.
    const analysed = (await Promise.all([a, b].map((r) => metric(r, "job_runs_analysed_total")))).map((n, i) => n - before[i]!);
    expect(analysed[0]).toBeGreaterThan(0);
    expect(analysed[1]).toBeGreaterThan(0);
    expect(analysed[0]! + analysed[1]!).toBe(40);
    // The same bytes as the synchronous comparison, run whole by one process.
    const sync = await postJson(`${b.url}/v1/compare`, body);
    expect(sync.status).toBe(200);
    expect(JSON.stringify(done.result)).toBe(JSON.stringify(sync.json));
  }, 120_000);

  it("kill -9 of the replica running a job: another replica takes it and it ends done with the same result", async () => {
    const body = { ...sample, model_name: "job-survives-its-replica" };
    const c = await startReplica();
    await until(() => readyz(c), (s) => s.status === "ready");
    // New prompts (a different model name) and slow answers: the job is caught mid-run.
    modelDelayMs = 1500;
    onTestFinished(() => {
      modelDelayMs = 0;
    });
    const runningBefore = await Promise.all([a, b, c].map((r) => r.lines.length));
    const { json } = await postJson(`${a.url}/v1/jobs`, { ...body, language: "de" });
    await until(() => job(a, json.id), (j) => j.state === "running");
    // The replica whose log names the job is the one running it.
    const owner = await until(
      async () => [a, b, c].find((r, i) => r.lines.slice(runningBefore[i]).some((l) => l.includes(json.id) && l.includes("analysis started"))),
      (r) => r !== undefined,
    );
    owner!.child.kill("SIGKILL");
    const survivor = [a, b, c].find((r) => r !== owner)!;
    const done = await until(() => job(survivor, json.id), (j) => j.state === "done" || j.state === "failed");
    expect(done.state).toBe("done");
    const reference = await postJson(`${survivor.url}/v1/analyse`, { ...body, language: "de" });
    expect((done.result as { findings: unknown }).findings).toEqual(reference.json.findings);
    // Run again from the start by one of the two left.
    const retaken = [a, b, c].filter((r) => r !== owner).some((r) => r.lines.some((l) => l.includes(json.id) && l.includes("analysis started")));
    expect(retaken).toBe(true);
  }, 120_000);

  it("kill -9 of a replica analysing a compare job's run: the run is taken again by another and the job ends with the same result", async () => {
    const body = sweep([1e-3, 1e-2, 1e-1], 2, "fr");
    // The two replicas the test before left alive: one is killed, the other finishes the job.
    const live = replicas.filter(alive);
    expect(live.length).toBeGreaterThanOrEqual(2);
    // New prompts (another language) and slow answers: runs are caught mid-analysis.
    modelDelayMs = 1000;
    onTestFinished(() => {
      modelDelayMs = 0;
    });
    const from = live.map((r) => r.lines.length);
    const { json } = await postJson(`${live[0]!.url}/v1/jobs`, body);
    // A replica with a run started and not yet analysed is killed: that run is lost with it.
    const interrupted = await until(
      async () => {
        for (const [i, r] of live.entries()) {
          const analysed = new Set(runsLogged(r, json.id, "analysed", from[i]));
          const open = runsLogged(r, json.id, "started", from[i]).find((n) => !analysed.has(n));
          if (open !== undefined) return { replica: r, run: open };
        }
        return null;
      },
      (x) => x !== null,
    );
    interrupted!.replica.child.kill("SIGKILL");
    const survivors = live.filter((r) => r !== interrupted!.replica);
    const done = await until(() => job(survivors[0]!, json.id), (j) => j.state === "done" || j.state === "failed");
    expect(done.state).toBe("done");
    expect(survivors.some((r) => runsLogged(r, json.id, "analysed", from[live.indexOf(r)]).includes(interrupted!.run))).toBe(true);
    modelDelayMs = 0;
    const reference = await postJson(`${survivors[0]!.url}/v1/compare`, body);
    expect(JSON.stringify(done.result)).toBe(JSON.stringify(reference.json));
  }, 120_000);

  it("Redis stopped: requests still answer 200 from the in-process caches, /readyz is degraded naming redis, jobs 503", async () => {
    const live = replicas.filter((r) => r.child.exitCode === null && r.child.signalCode === null);
    await redis.kill();
    for (const r of live) {
      const knowledge = await fetch(`${r.url}/v1/knowledge?q=${encodeURIComponent("learning rate warmup")}`);
      expect(knowledge.status).toBe(200);
      const analysis = await postJson(`${r.url}/v1/analyse`, sample);
      expect(analysis.status).toBe(200);
      const state = await until(() => readyz(r), (s) => s.status !== "ready");
      expect(state).toMatchObject({ status: "degraded", failing: ["redis"] });
      expect(state.checks).toContainEqual({ name: "redis", ok: false, detail: expect.stringMatching(/^unavailable/) });
      const queued = await postJson(`${r.url}/v1/jobs`, sample);
      expect(queued.status).toBe(503);
      expect(queued.headers.get("retry-after")).toBeTruthy();
      expect(r.lines.some((l) => l.includes('"level":"warn"') && l.includes("Redis unavailable"))).toBe(true);
    }
  }, 60_000);
});
