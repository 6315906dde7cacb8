import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../../config/logger.js";
import { BullmqJobQueue } from "../../../jobs/bullmq-queue.js";
import type { CompareSteps, JobContext, JobOutcome, JobRunner, JobView } from "../../../jobs/job.js";
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

/**
 * Comparison steps whose runs are held as heldRunner's jobs are: the plan lists the body's `runs` (numbers), a run
 * is held until the test finishes it or its signal aborts, the conclusion returns the head and the runs' results.
 */
function heldCompare() {
  const held = new Map<number, { finish: (o: JobOutcome) => void; context: JobContext }>();
  const steps: CompareSteps = {
    isCompare: (body) => typeof body === "object" && body !== null && "runs" in body,
    plan: async (request) => ({ head: { of: request.id }, runs: (request.body as { runs: number[] }).runs }),
    analyseRun: (_id, input, context) =>
      new Promise<JobOutcome>((finish) => {
        held.set(input as number, { finish, context });
        context.signal.addEventListener("abort", () => finish({ state: "failed", error: { status: 500, code: "ANALYSIS_FAILED", detail: "stopped" } }), { once: true });
      }),
    conclude: async (request, runs) => ({ state: "done", result: { head: request.head, runs } }),
  };
  return { steps, held };
}

/** Two replicas' queues on one Redis database, one worker each (and one run worker, given comparison steps). */
function replicas(runner: JobRunner, db: number, maxQueued = 10, compare: CompareSteps | null = null) {
  const options = { url: `${redis.url}/${db}`, logger: createLogger("silent"), workers: 1, runWorkers: 1, maxQueued, retentionMs: 60_000, attempts: 2, lockMs: 30_000 };
  return [new BullmqJobQueue(runner, options, compare), new BullmqJobQueue(runner, options, compare)] as const;
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

  it("a comparison's runs are spread over both replicas, its progress counts runs done, the conclusion gets every result in order", async () => {
    const { runner } = heldRunner();
    const { steps, held } = heldCompare();
    const [a, b] = replicas(runner, 5, 10, steps);
    try {
      await a.submit({ id: "cmp", body: { runs: [10, 20, 30, 40] } });
      // One run worker per replica: two runs at once, one on each.
      await until(() => b.get("cmp"), () => held.size === 2);
      expect(await b.get("cmp")).toMatchObject({ state: "running", progress: { runs_done: 0, runs_total: 4, message: "0 of 4 runs analysed" } });
      // The runs queue's depth for /metrics, as either replica reads it (its counts are refreshed every 5 s).
      await until(() => b.get("cmp"), () => b.runCounts().queued === 2);
      expect(b.runCounts()).toEqual({ queued: 2, running: 2 });
      // Finished in reverse order of the request, each as it is taken.
      for (const run of [20, 10, 40, 30]) {
        await until(() => b.get("cmp"), () => held.has(run));
        held.get(run)!.finish({ state: "done", result: run * 2 });
        if (run === 20) expect((await until(() => a.get("cmp"), (j) => j?.progress?.runs_done === 1))?.progress).toEqual({ runs_done: 1, runs_total: 4, message: "1 of 4 runs analysed" });
      }
      expect(await until(() => a.get("cmp"), (j) => j?.state === "done")).toEqual({
        id: "cmp",
        state: "done",
        progress: { runs_done: 4, runs_total: 4, message: "4 of 4 runs analysed" },
        result: { head: { of: "cmp" }, runs: [20, 40, 60, 80] },
        error: null,
      });
      expect(a.runsAnalysedHere()).toBeGreaterThan(0);
      expect(b.runsAnalysedHere()).toBeGreaterThan(0);
      expect(a.runsAnalysedHere() + b.runsAnalysedHere()).toBe(4);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("cancelling a comparison stops its running runs wherever they run; its queued runs are never analysed", async () => {
    const { runner } = heldRunner();
    const { steps, held } = heldCompare();
    const [a, b] = replicas(runner, 6, 10, steps);
    try {
      await a.submit({ id: "doomed", body: { runs: [1, 2, 3, 4, 5] } });
      await until(() => a.get("doomed"), () => held.size === 2);
      expect((await b.cancel("doomed"))?.state).toBe("cancelled");
      await until(() => a.get("doomed"), () => [...held.values()].every((h) => h.context.signal.aborted));
      // Runs are taken in order: once a later comparison's run is taken, the cancelled one's queue is drained.
      await a.submit({ id: "next", body: { runs: [100] } });
      await until(() => a.get("next"), () => held.has(100));
      expect([...held.keys()].sort((x, y) => x - y)).toEqual([1, 2, 100]);
      expect(await a.get("doomed")).toMatchObject({ state: "cancelled", result: null, error: null });
      held.get(100)!.finish({ state: "done", result: 0 });
      expect(await until(() => b.get("next"), (j) => j?.state === "done")).toMatchObject({ result: { head: { of: "next" }, runs: [0] } });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("a run that fails past its attempts fails its comparison with an error naming the run; its other runs stop", async () => {
    const { runner } = heldRunner();
    const { steps, held } = heldCompare();
    const tries: number[] = [];
    const breaking: CompareSteps = {
      ...steps,
      analyseRun: (id, input, context) => {
        if (input !== 2) return steps.analyseRun(id, input, context);
        tries.push(input);
        return Promise.reject(new Error("the digest of run 2 exploded"));
      },
    };
    const [a, b] = replicas(runner, 7, 10, breaking);
    try {
      await a.submit({ id: "broken", body: { runs: [1, 2, 3] } });
      // Run 1 is held throughout, on one replica's run worker; the other worker takes run 2, its retry and run 3.
      const failed = await until(
        () => b.get("broken"),
        (j) => {
          held.get(3)?.finish({ state: "done", result: 3 });
          return j?.state === "failed";
        },
      );
      expect(failed).toMatchObject({ state: "failed", result: null, error: { status: 500, code: "ANALYSIS_FAILED" } });
      expect(failed?.error?.detail).toMatch(/run 2 of 3 failed after 2 attempts: the digest of run 2 exploded/);
      // Tried as often as SERVICE_JOB_ATTEMPTS says (replicas() gives 2); the run still running is stopped.
      expect(tries).toEqual([2, 2]);
      await until(() => a.get("broken"), () => held.get(1)?.context.signal.aborted === true);
      // Nothing of it is left to work: a later comparison's run is taken and the comparison concluded.
      await a.submit({ id: "after", body: { runs: [100] } });
      await until(() => a.get("after"), () => held.has(100));
      held.get(100)!.finish({ state: "done", result: 0 });
      expect(await until(() => b.get("after"), (j) => j?.state === "done")).toMatchObject({ result: { head: { of: "after" }, runs: [0] } });
    } finally {
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
