import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Logger } from "../config/logger.js";
import { releaseIdlePool } from "../workers/pool.js";

/** How often an idle service looks at its resident set. */
const CHECK_MS = 5_000;
/** Above this share of its resident set just after start, an idle service gives memory back. */
const ABOVE_START = 1.25;

type FullGc = () => void;

/**
 * V8's own collector, reached without starting node with --expose-gc (which NODE_OPTIONS does not accept on Node
 * 20): the flag set at run time defines `gc` in contexts created afterwards.
 */
function fullGc(): FullGc {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as FullGc;
}

export interface IdleMemoryOptions {
  /** Whether the service is doing nothing: no request open, no analysis slot held (jobs included). */
  idle(): boolean;
  logger: Logger;
  /** The resident set now (process.memoryUsage.rss by default). */
  rss?: () => number;
  checkMs?: number;
}

/**
 * Gives memory back once the service is idle after large requests. A large analysis leaves its request bytes and
 * parsed columns as ArrayBuffers outside the V8 heap: once garbage they are freed only by a collection, and an idle
 * process with a small heap has no reason to collect, so they stay resident (issue 37: 822 MB of dead ArrayBuffers
 * in an idle service after two rounds of ten 40 MB analyses). Every CHECK_MS, when nothing is running and the
 * resident set is above ABOVE_START × its post-start size, the worker pool's threads are ended (their isolates hold
 * their own garbage) and a full collection runs: about 0.1 s of an idle core, once per busy period.
 */
export function startIdleMemoryRelease(options: IdleMemoryOptions): { stop(): void } {
  const rss = options.rss ?? (() => process.memoryUsage.rss());
  const baseline = rss();
  const gc = fullGc();
  // Released again only once the resident set has grown past what the last release left (fragmented malloc arenas
  // may keep some), so an idle service does not collect every CHECK_MS for nothing.
  let floor = ABOVE_START * baseline;
  // Idle at two checks in a row: the last responses' buffers are no longer referenced by their sockets.
  let idleChecks = 0;
  const timer = setInterval(() => {
    idleChecks = options.idle() ? idleChecks + 1 : 0;
    const before = rss();
    if (before <= floor || idleChecks < 2) return;
    const started = performance.now();
    const threads = releaseIdlePool();
    // Twice: the second collects what the first one's finalizers let go (ArrayBuffers' backing stores among them).
    gc();
    gc();
    const after = rss();
    floor = Math.max(ABOVE_START * baseline, 1.1 * after);
    options.logger.info("idle: memory given back", { rss_before_mb: Math.round(before / 2 ** 20), rss_after_mb: Math.round(after / 2 ** 20), worker_threads_ended: threads, ms: Math.round(performance.now() - started) });
  }, options.checkMs ?? CHECK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
