import { afterEach, describe, expect, it, vi } from "vitest";
import { Deadline, DeadlineExceeded, untilAborted } from "../../../graph/deadline.js";
import { collectGarbageRepeatedly } from "../../support/gc.js";

const reasonOf = (signal: AbortSignal) => signal.reason as unknown;

describe("Deadline", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("aborts at its limit with a DeadlineExceeded naming the budget", async () => {
    vi.useFakeTimers();
    const deadline = new Deadline().begin(1000, "the analysis (SERVICE_REQUEST_TIMEOUT_MS)");
    await vi.advanceTimersByTimeAsync(999);
    expect(deadline.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(reasonOf(deadline.signal)).toEqual(new DeadlineExceeded("the analysis (SERVICE_REQUEST_TIMEOUT_MS)", 1000));
    expect((reasonOf(deadline.signal) as Error).message).toBe("the analysis (SERVICE_REQUEST_TIMEOUT_MS) timed out after 1000 ms");
  });

  it("ends a scope at its own limit without ending the request", async () => {
    vi.useFakeTimers();
    const deadline = new Deadline().begin(1000, "request");
    const scope = deadline.scope(300, "step");
    await vi.advanceTimersByTimeAsync(300);
    expect(reasonOf(scope.signal)).toEqual(new DeadlineExceeded("step", 300));
    expect(deadline.signal.aborted).toBe(false);
  });

  it("ends a scope longer than what the request has left with the request's own reason", async () => {
    vi.useFakeTimers();
    const deadline = new Deadline().begin(200, "request");
    const scope = deadline.scope(5000, "step");
    await vi.advanceTimersByTimeAsync(200);
    expect(reasonOf(scope.signal)).toEqual(new DeadlineExceeded("request", 200));
  });

  it("aborts every scope with the reason of a cancelled request", () => {
    const deadline = new Deadline();
    const scope = deadline.scope(5000, "step");
    const gone = new Error("client disconnected");
    deadline.abort(gone);
    expect(reasonOf(scope.signal)).toBe(gone);
    expect(reasonOf(deadline.scope(10, "late").signal)).toBe(gone);
  });

  it("re-arms a scope from now on restart (a silence timer)", async () => {
    vi.useFakeTimers();
    const deadline = new Deadline();
    const scope = deadline.scope(100, "silence");
    await vi.advanceTimersByTimeAsync(80);
    scope.restart();
    await vi.advanceTimersByTimeAsync(80);
    expect(scope.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(20);
    expect(reasonOf(scope.signal)).toEqual(new DeadlineExceeded("silence", 100));
  });

  it("clears every timer when disposed: nothing fires after the request ended", async () => {
    vi.useFakeTimers();
    const deadline = new Deadline().begin(100, "request");
    const scope = deadline.scope(50, "step");
    const fired = vi.fn();
    deadline.timer(50, fired);
    deadline.dispose();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(200);
    expect(fired).not.toHaveBeenCalled();
    expect(scope.signal.aborted).toBe(false);
    expect(deadline.signal.aborted).toBe(false);
  });

  it("rejects `within` at the scope's limit even when the step ignores its signal", async () => {
    vi.useFakeTimers();
    const deadline = new Deadline();
    const pending = deadline.within(100, "the model", () => new Promise<never>(() => {})).catch((err: unknown) => err);
    await vi.advanceTimersByTimeAsync(100);
    expect(await pending).toEqual(new DeadlineExceeded("the model", 100));
    expect(vi.getTimerCount()).toBe(0);
  });

  it("fires on time while garbage is collected and nothing else holds its signal", async () => {
    const stop = collectGarbageRepeatedly(5);
    try {
      // Only a promise waits on the request's signal, through untilAborted: the deadline keeps its own timers.
      const request = untilAborted(new Promise<never>(() => {}), new Deadline().begin(200, "request").signal).catch((err: unknown) => err);
      const step = new Deadline().within(150, "step", () => new Promise<never>(() => {})).catch((err: unknown) => err);
      expect(await request).toEqual(new DeadlineExceeded("request", 200));
      expect(await step).toEqual(new DeadlineExceeded("step", 150));
    } finally {
      stop();
    }
  });

  it("leaves no unhandled rejection behind when the request had already ended before the work failed", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const ended = new Deadline();
      ended.abort(new Error("client gone"));
      const work = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("parse failed late")), 5));
      await expect(untilAborted(work, ended.signal)).rejects.toThrow("client gone");
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
