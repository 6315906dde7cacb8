import { describe, expect, it } from "vitest";
import type { JobContext, JobOutcome, JobRunner } from "../../../jobs/job.js";
import { MemoryJobQueue } from "../../../jobs/memory-queue.js";
import { QueueFullError } from "../../../jobs/queue.js";

/** A runner whose jobs end when the test says, each with the outcome it is given. */
function manualRunner() {
  const running = new Map<string, { finish: (o: JobOutcome) => void; context: JobContext }>();
  const started: string[] = [];
  const runner: JobRunner = (request, context) =>
    new Promise<JobOutcome>((finish) => {
      started.push(request.id);
      running.set(request.id, { finish, context });
    });
  return { runner, running, started };
}
const settle = () => new Promise((r) => setImmediate(r));

describe("MemoryJobQueue", () => {
  it("runs at most `workers` jobs at once, in submission order, and refuses past the waiting bound", async () => {
    const { runner, running, started } = manualRunner();
    const queue = new MemoryJobQueue(runner, { workers: 2, maxQueued: 1, retentionMs: 60_000 });
    for (const id of ["a", "b", "c"]) await queue.submit({ id, body: {} });
    await expect(queue.submit({ id: "d", body: {} })).rejects.toBeInstanceOf(QueueFullError);
    expect(started).toEqual(["a", "b"]);
    expect(queue.counts()).toMatchObject({ queued: 1, running: 2 });
    running.get("a")!.finish({ state: "done", result: { n: 1 } });
    await settle();
    expect(started).toEqual(["a", "b", "c"]);
    expect(await queue.get("a")).toEqual({ id: "a", state: "done", progress: null, result: { n: 1 }, error: null });
    running.get("b")!.finish({ state: "failed", error: { status: 400, code: "BAD_REQUEST", detail: "Error decoding request: x" } });
    await settle();
    expect(await queue.get("b")).toMatchObject({ state: "failed", result: null, error: { status: 400 } });
    expect(queue.counts()).toEqual({ queued: 0, running: 1, done: 1, failed: 1, cancelled: 0 });
  });

  it("keeps progress while running; cancelling aborts the run and ends the job cancelled whatever the run returns", async () => {
    const { runner, running } = manualRunner();
    const queue = new MemoryJobQueue(runner, { workers: 1, maxQueued: 5, retentionMs: 60_000 });
    await queue.submit({ id: "a", body: {} });
    await queue.submit({ id: "b", body: {} });
    running.get("a")!.context.progress({ nodes_finished: 2, message: "route finished" });
    expect(await queue.get("a")).toMatchObject({ state: "running", progress: { nodes_finished: 2 } });
    expect((await queue.cancel("b"))?.state).toBe("cancelled");
    expect((await queue.cancel("a"))?.state).toBe("cancelled");
    expect(running.get("a")!.context.signal.aborted).toBe(true);
    running.get("a")!.finish({ state: "done", result: {} });
    await settle();
    expect(await queue.get("a")).toMatchObject({ state: "cancelled", result: null });
    expect(running.has("b")).toBe(false);
    expect(queue.counts()).toMatchObject({ running: 0, cancelled: 2, done: 0 });
  });

  it("forgets a finished job after the retention time, and keeps at most maxFinished", async () => {
    // lru-cache reads a start time of 0 as "never set": the clock starts later.
    let now = 1_000_000;
    const { runner, running } = manualRunner();
    const queue = new MemoryJobQueue(runner, { workers: 3, maxQueued: 5, retentionMs: 1000, maxFinished: 2, clock: { now: () => now } });
    for (const id of ["a", "b", "c"]) await queue.submit({ id, body: {} });
    for (const id of ["a", "b", "c"]) running.get(id)!.finish({ state: "done", result: id });
    await settle();
    expect(await queue.get("a")).toBeNull();
    expect((await queue.get("c"))?.result).toBe("c");
    now += 999;
    expect(await queue.get("b")).not.toBeNull();
    now += 2;
    expect(await queue.get("b")).toBeNull();
    expect(await queue.cancel("c")).toBeNull();
  });

  it("close aborts the running jobs and starts no more", async () => {
    const { runner, running, started } = manualRunner();
    const queue = new MemoryJobQueue(runner, { workers: 1, maxQueued: 5, retentionMs: 1000 });
    await queue.submit({ id: "a", body: {} });
    await queue.submit({ id: "b", body: {} });
    await queue.close();
    expect(running.get("a")!.context.signal.aborted).toBe(true);
    running.get("a")!.finish({ state: "cancelled" });
    await settle();
    expect(started).toEqual(["a"]);
  });
});
