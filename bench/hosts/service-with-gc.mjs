// memory_soak host, under plain node: the real service (dist/server/main.js, exactly as `npm start` runs it) with a
// way to force a full garbage collection from outside. On SIGUSR2 it notes the resident set, collects twice, and
// appends {rssBefore, rss, heapUsed, heapTotal} as one JSON line to the file SOAK_GC_FILE names: the bench then
// reads what live objects hold, apart from garbage V8 has not yet had a reason to collect.
import { appendFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

const file = process.env.SOAK_GC_FILE;
if (!file) throw new Error("SOAK_GC_FILE must name the file the GC samples are appended to");
// --expose-gc is not accepted in NODE_OPTIONS on Node 20; set before a new context, gc() is defined there.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");

process.on("SIGUSR2", () => {
  const rssBefore = process.memoryUsage.rss();
  gc();
  gc();
  const { rss, heapUsed, heapTotal } = process.memoryUsage();
  appendFileSync(file, `${JSON.stringify({ rssBefore, rss, heapUsed, heapTotal })}\n`);
});

await import("../../dist/server/main.js");
