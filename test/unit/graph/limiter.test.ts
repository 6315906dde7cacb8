import { describe, expect, it } from "vitest";
import { createLimiter } from "../../../graph/limiter.js";

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe("createLimiter", () => {
  it("never runs more than n tasks at once and runs them all", async () => {
    const limiter = createLimiter(2);
    let running = 0, peak = 0;
    const gates = Array.from({ length: 5 }, deferred);
    const done = gates.map((g) => limiter.run(async () => { running++; peak = Math.max(peak, running); await g.promise; running--; }));
    await Promise.resolve();
    expect(limiter.active).toBe(2);
    expect(limiter.waiting).toBe(3);
    for (const g of gates) g.resolve();
    await Promise.all(done);
    expect(peak).toBe(2);
    expect(limiter.active).toBe(0);
  });

  it("removes an aborted waiter from the queue", async () => {
    const limiter = createLimiter(1);
    const gate = deferred();
    const first = limiter.run(() => gate.promise);
    const ac = new AbortController();
    const second = limiter.run(async () => "ran", ac.signal);
    ac.abort(new Error("gone"));
    await expect(second).rejects.toThrow("gone");
    expect(limiter.waiting).toBe(0);
    gate.resolve();
    await first;
  });

  it("refuses sizes below 1", () => {
    expect(() => createLimiter(0)).toThrow(RangeError);
  });
});
