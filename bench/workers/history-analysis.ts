// Worker for history_scaling: one history size per process, so the peak RSS it reports is this size's own.
// argv: <points> <repeats> <budget ms> <body file>: timed runs stop early once the budget is spent (a slow analyzer must not
// stall the bench; at least one run is always timed). Sends one HistoryRun message over IPC.
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { createLogger } from "../../config/logger.js";
import { analyzeRequest } from "../../server/analyze-request.js";
import { Deadline } from "../../graph/deadline.js";
import { parseJsonBody } from "../../server/json-body.js";
import { createServiceRuntime } from "../../server/runtime.js";
import { trainingHistoryBody, trainingHistoryRequest } from "../data/training-history.js";
import { since } from "../lib/stats.js";

export interface HistoryRun {
  points: number;
  bodyBytes: number;
  /** The service's parse of the body's bytes (server/json-body.ts: on the worker pool at this size), per timed run. */
  parseMs: number[];
  /** Decode + graph run (deterministic mode), per timed run. */
  analysisMs: number[];
  /** Baseline: native JSON.parse of the same text, per timed run. */
  jsonParseMs: number[];
  /**
   * CPU time of the process (every thread: the analysis runs on the worker pool) for parse + analysis and for the
   * baseline, per timed run: steadier than wall time when the shared machine is loaded.
   */
  cpuMs: number[];
  jsonParseCpuMs: number[];
  /** Peak RSS before the body existed (runtime loaded, warm) and after the timed analyses, bytes. */
  idleRssBytes: number;
  peakRssBytes: number;
  errors: Record<string, string>;
  findings: string[];
}

const peakRss = () => process.resourceUsage().maxRSS * 1024;
const cpuSince = (start: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
};

const [points, repeats, budgetMs] = process.argv.slice(2, 5).map(Number) as [number, number, number];
const bodyFile = process.argv[5];
if (!(points > 0) || !(repeats > 0) || !(budgetMs > 0) || !bodyFile) throw new Error("usage: history-analysis.ts <points> <repeats> <budget ms> <body file>");

/** The file's bytes in shared memory, as server/intake.ts receives a body with a declared length. */
function received(path: string): Buffer {
  const bytes = Buffer.from(new SharedArrayBuffer(statSync(path).size));
  const fd = openSync(path, "r");
  for (let at = 0; at < bytes.length; ) at += readSync(fd, bytes, at, bytes.length - at, at);
  closeSync(fd);
  return bytes;
}

const logger = createLogger("silent");
const runtime = createServiceRuntime({ SERVICE_LOG_LEVEL: "silent" }, { logger });
const analyse = (body: unknown) => analyzeRequest(runtime, body, { requestId: "bench", logger, deadline: new Deadline() });

// Warm the code paths (JIT, lazy imports, every thread of the worker pool) before anything is measured: a small
// history, and one whose body (1.3 MB) is parsed and examined on the pool.
await analyse(trainingHistoryRequest(1000));
await analyse(await parseJsonBody(trainingHistoryBody(25_000)));
const idleRssBytes = peakRss();

// The body as the service receives it (bytes in shared memory, which parsing leaves as they are), every run.
const body = received(bodyFile);
const run: HistoryRun = {
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
process.send!(run, () => process.exit(0));
