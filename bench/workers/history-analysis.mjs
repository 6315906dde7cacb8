// Worker for history_scaling: one history size per process, so the peak RSS it reports is this size's own.
// argv: <points> <repeats> <budget ms> <body file> <warm-up body file>…: timed runs stop early once the budget is
// spent (a slow analyzer must not stall the bench; at least one run is always timed). Sends one HistoryRun
// (bench/suites/history-scaling.ts) over IPC.
// Plain JavaScript under plain node, importing the service's production build (dist/, built by the suite): the
// measured process then holds what `npm start` holds, with no TypeScript loader in it or in its pool's threads.
import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";

const built = (path) => import(new URL(`../../dist/${path}`, import.meta.url).href);
const { createLogger } = await built("config/logger.js");
const { analyzeRequest } = await built("server/analyze-request.js");
const { Deadline } = await built("graph/deadline.js");
const { parseJsonBody } = await built("server/json-body.js");
const { createServiceRuntime } = await built("server/runtime.js");

const peakRss = () => process.resourceUsage().maxRSS * 1024;
const since = (start) => performance.now() - start;
const cpuSince = (start) => {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
};

const [points, repeats, budgetMs] = process.argv.slice(2, 5).map(Number);
const [bodyFile, ...warmUpFiles] = process.argv.slice(5);
if (!(points > 0) || !(repeats > 0) || !(budgetMs > 0) || !bodyFile) {
  throw new Error("usage: history-analysis.mjs <points> <repeats> <budget ms> <body file> <warm-up body file>…");
}

/** The file's bytes in shared memory, as server/intake.ts receives a body with a declared length. */
function received(path) {
  const bytes = Buffer.from(new SharedArrayBuffer(statSync(path).size));
  const fd = openSync(path, "r");
  for (let at = 0; at < bytes.length; ) at += readSync(fd, bytes, at, bytes.length - at, at);
  closeSync(fd);
  return bytes;
}

const logger = createLogger("silent");
const runtime = createServiceRuntime({ SERVICE_LOG_LEVEL: "silent" }, { logger });
const analyse = (body) => analyzeRequest(runtime, body, { requestId: "bench", logger, deadline: new Deadline() });

// Warm the code paths (JIT, lazy imports, every thread of the worker pool) before anything is measured: a small
// history parsed in place, and one (1.3 MB) parsed and examined on the pool.
for (const file of warmUpFiles) await analyse(await parseJsonBody(readFileSync(file)));
const idleRssBytes = peakRss();

// The body as the service receives it (bytes in shared memory, which parsing leaves as they are), every run.
const body = received(bodyFile);
const run = {
  points,
  bodyBytes: body.length,
  parseMs: [],
  analysisMs: [],
  jsonParseMs: [],
  cpuMs: [],
  jsonParseCpuMs: [],
  idleRssBytes,
  peakRssBytes: 0,
  errors: {},
  findings: [],
};
const budgetStart = performance.now();
for (let i = 0; i < repeats && (i === 0 || since(budgetStart) < budgetMs); i++) {
  const cpu = process.cpuUsage();
  let started = performance.now();
  const request = await parseJsonBody(body);
  run.parseMs.push(since(started));
  started = performance.now();
  const response = await analyse(request);
  run.analysisMs.push(since(started));
  run.cpuMs.push(cpuSince(cpu));
  run.errors = response.error_messages;
  run.findings = Object.values(response.agent_results).flatMap((r) => r.findings.map((f) => f.id));
}
run.peakRssBytes = peakRss();
const text = body.toString("utf8");
for (let i = 0; i < run.analysisMs.length; i++) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  JSON.parse(text);
  run.jsonParseMs.push(since(started));
  run.jsonParseCpuMs.push(cpuSince(cpu));
}
process.send(run, () => process.exit(0));
