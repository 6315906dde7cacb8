// memory_soak host, under plain node: the real service (dist/server/main.js, exactly as `npm start` runs it) with a
// way to force a full garbage collection from outside. On SIGUSR2 it notes the resident set, collects twice, and
// appends {rssBefore, rss, heapUsed, heapTotal, external, arrayBuffers, threads} as one JSON line to the file
// SOAK_GC_FILE names: the bench then reads what live objects hold, apart from garbage V8 has not yet had a reason
// to collect. On SIGWINCH it appends the same without collecting.
import { appendFileSync, readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

const file = process.env.SOAK_GC_FILE;
if (!file) throw new Error("SOAK_GC_FILE must name the file the GC samples are appended to");
// --expose-gc is not accepted in NODE_OPTIONS on Node 20; set before a new context, gc() is defined there.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");

/** The process's threads (main, libuv, V8 platform, worker pool), from /proc on Linux; null elsewhere. */
function threads() {
  try {
    return Number(/^Threads:\s+(\d+)/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? Number.NaN);
  } catch {
    return null;
  }
}

// SIGUSR2: a forced GC, then the sample; SIGWINCH: the sample alone, what an idle service holds by itself
// (SIGUSR1 is the inspector's).
function sample(forced) {
  const rssBefore = process.memoryUsage.rss();
  if (forced) {
    gc();
    gc();
  }
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  appendFileSync(file, `${JSON.stringify({ rssBefore, rss, heapUsed, heapTotal, external, arrayBuffers, threads: threads(), forced })}\n`);
}
process.on("SIGUSR2", () => sample(true));
process.on("SIGWINCH", () => sample(false));

await import("../../dist/server/main.js");
