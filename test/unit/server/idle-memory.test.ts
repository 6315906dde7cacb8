import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../../config/logger.js";
import { startIdleMemoryRelease } from "../../../server/idle-memory.js";
import { runTask, sharedPool } from "../../../workers/pool.js";

const MB = 2 ** 20;
let stop: (() => void) | null = null;
afterEach(() => {
  stop?.();
  stop = null;
});

/** A release loop on a stubbed resident set and idleness, checking every 10 ms; its log lines. */
function loop(state: { rss: number; idle: boolean }) {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger("info", {}, (line) => lines.push(JSON.parse(line) as Record<string, unknown>));
  stop = startIdleMemoryRelease({ idle: () => state.idle, logger, rss: () => state.rss, checkMs: 10 }).stop;
  return () => lines.filter((l) => l.msg === "idle: memory given back");
}

const ticks = (n: number) => new Promise((resolve) => setTimeout(resolve, 10 * n + 5));

/** Waits (up to 5 s: a full GC on a loaded machine is slow) until `count` releases were logged. */
async function releases(released: () => unknown[], count: number) {
  for (let i = 0; i < 500 && released().length < count; i++) await ticks(1);
  return released();
}

describe("memory given back by an idle service", () => {
  it("collects once the service has been idle for two checks with RSS above 1.25× its start, and not again for nothing", async () => {
    const state = { rss: 100 * MB, idle: false };
    const released = loop(state);
    state.rss = 400 * MB;
    await ticks(4);
    expect(released()).toHaveLength(0); // busy: never while a request is open
    state.idle = true;
    expect(await releases(released, 1)).toHaveLength(1);
    expect(released()[0]).toMatchObject({ rss_before_mb: 400 });
    await ticks(5);
    expect(released()).toHaveLength(1); // what is left (400 here) is not collected every check
    state.rss = 500 * MB; // grown past 1.1× what the last release left: a new busy period
    expect(await releases(released, 2)).toHaveLength(2);
  });

  it("leaves a service near its start size alone", async () => {
    const state = { rss: 100 * MB, idle: true };
    const released = loop(state);
    state.rss = 124 * MB;
    await ticks(5);
    expect(released()).toHaveLength(0);
  });

  it("ends the worker pool's idle threads, and the next task starts a new pool", async () => {
    const before = sharedPool();
    await runTask("parseJson", new TextEncoder().encode('{"a": 1}'));
    expect(before.threads.length).toBeGreaterThan(0);
    const state = { rss: 100 * MB, idle: true };
    const released = loop(state);
    state.rss = 300 * MB;
    expect((await releases(released, 1))[0]).toMatchObject({ worker_threads_ended: true });
    expect(sharedPool()).not.toBe(before);
    await expect(runTask("parseJson", new TextEncoder().encode('{"b": 2}'))).resolves.toBeDefined();
  });
});
