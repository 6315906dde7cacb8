import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../../config/logger.js";
import { BullmqJobQueue } from "../../../jobs/bullmq-queue.js";
import type { JobContext, JobOutcome, JobRunner, JobView } from "../../../jobs/job.js";
import { QueueFullError } from "../../../jobs/queue.js";
import { type RedisServer, startRedisServer } from "../../support/redis-server.js";

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

/**
 * One runner for every replica's workers: a job is held until the test finishes it or its signal aborts (then it
 * ends as a run that was stopped would). Whichever replica took a job, the test reaches it here.
 */
function heldRunner() {
  const held = new Map<string, { finish: (o: JobOutcome) => void; context: JobContext }>();
  const runner: JobRunner = (request, context) =>
    new Promise<JobOutcome>((finish) => {
      held.set(request.id, { finish, context });
      context.signal.addEventListener("abort", () => finish({ state: "failed", error: { status: 500, code: "ANALYSIS_FAILED", detail: "stopped" } }), { once: true });
    });
  const finishAll = () => {
    for (const h of held.values()) h.finish({ state: "done", result: null });
  };
  return { runner, held, finishAll };
}

/** Two replicas' queues on one Redis database, one worker each. */
function replicas(runner: JobRunner, db: number, maxQueued = 10) {
  const options = { url: `${redis.url}/${db}`, logger: createLogger("silent"), workers: 1, maxQueued, retentionMs: 60_000, attempts: 2, lockMs: 30_000 };
  return [new BullmqJobQueue(runner, options), new BullmqJobQueue(runner, options)] as const;
}

async function until(read: () => Promise<JobView | null>, done: (job: JobView | null) => boolean): Promise<JobView | null> {
  for (;;) {
    const job = await read();
    if (done(job)) return job;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("BullmqJobQueue (real redis-server)", () => {
  it("a job submitted through one replica is read through the other: running with its progress, then done", async () => {
    const { runner, held, finishAll } = heldRunner();
    const [a, b] = replicas(runner, 1);
    try {
      await a.submit({ id: "job-1", body: { n: 1 } });
      await until(() => b.get("job-1"), (j) => j?.state === "running" && held.has("job-1"));
      held.get("job-1")!.context.progress({ nodes_finished: 3, message: "integrate finished" });
      await until(() => b.get("job-1"), (j) => j?.progress?.nodes_finished === 3);
      held.get("job-1")!.finish({ state: "done", result: { answer: 42 } });
      expect(await until(() => b.get("job-1"), (j) => j?.state === "done")).toEqual({
        id: "job-1",
        state: "done",
        progress: { nodes_finished: 3, message: "integrate finished" },
        result: { answer: 42 },
        error: null,
      });
      expect(await a.get("never-submitted")).toBeNull();
    } finally {
      finishAll();
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("cancelled through either replica: the running job's signal aborts wherever it runs, a waiting one never runs", async () => {
    const { runner, held, finishAll } = heldRunner();
    const [a, b] = replicas(runner, 2);
    try {
      for (const id of ["run-1", "run-2", "waiting"]) await a.submit({ id, body: {} });
      await until(() => b.get("run-2"), () => held.has("run-1") && held.has("run-2"));
      expect((await b.get("waiting"))?.state).toBe("queued");
      expect((await b.cancel("waiting"))?.state).toBe("cancelled");
      expect((await b.cancel("run-1"))?.state).toBe("cancelled");
      await until(() => a.get("run-1"), () => held.get("run-1")!.context.signal.aborted);
      expect(await until(() => a.get("run-1"), (j) => j?.state === "cancelled")).toMatchObject({ state: "cancelled", result: null, error: null });
      // The freed worker takes the waiting job, finds it cancelled and never runs it.
      held.get("run-2")!.finish({ state: "done", result: 2 });
      expect(await until(() => a.get("waiting"), (j) => j?.state === "cancelled")).toMatchObject({ state: "cancelled" });
      expect((await a.get("run-2"))?.state).toBe("done");
      expect(held.has("waiting")).toBe(false);
    } finally {
      finishAll();
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("a finished job is gone (null, so 404) once the retention time has passed, even with no other job finishing", async () => {
    const queue = new BullmqJobQueue(async () => ({ state: "done", result: 1 }), {
      url: `${redis.url}/4`,
      logger: createLogger("silent"),
      workers: 1,
      maxQueued: 10,
      retentionMs: 300,
      attempts: 1,
      lockMs: 30_000,
    });
    try {
      await queue.submit({ id: "short-lived", body: {} });
      expect(await until(() => queue.get("short-lived"), (j) => j?.state === "done")).toMatchObject({ result: 1 });
      expect(await until(() => queue.get("short-lived"), (j) => j === null)).toBeNull();
    } finally {
      await queue.close();
    }
  });

  it("refuses a job once SERVICE_MAX_QUEUED_JOBS wait, counted across replicas", async () => {
    const { runner, held, finishAll } = heldRunner();
    const [a, b] = replicas(runner, 3, 2);
    try {
      await a.submit({ id: "r1", body: {} });
      await b.submit({ id: "r2", body: {} });
      await until(() => a.get("r2"), () => held.size === 2);
      await a.submit({ id: "w1", body: {} });
      await b.submit({ id: "w2", body: {} });
      await expect(a.submit({ id: "w3", body: {} })).rejects.toBeInstanceOf(QueueFullError);
      await expect(b.submit({ id: "w3", body: {} })).rejects.toThrow(/2 jobs are waiting.*SERVICE_MAX_QUEUED_JOBS/);
    } finally {
      finishAll();
      await until(() => a.get("w2"), () => held.size === 4);
      finishAll();
      await Promise.all([a.close(), b.close()]);
    }
  });
});
