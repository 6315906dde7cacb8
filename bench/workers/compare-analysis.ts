// Worker for compare_scaling: one comparison size per process, so the peak RSS it reports is this size's own.
// argv: <runs> <points per series>. Builds a seeded sweep (learning rates × seeds, val_loss and train_loss per
// run), parses the body as the service does and runs POST /v1/compare's work offline. Sends one CompareRun over IPC.
import { createLogger } from "../../config/logger.js";
import { buildExperimentGraph } from "../../graph/build-experiment.js";
import { Deadline } from "../../graph/deadline.js";
import { compareRequest } from "../../server/compare-request.js";
import { parseJsonText } from "../../server/json-body.js";
import { createServiceRuntime } from "../../server/runtime.js";
import { lrGrid, syntheticRun } from "../../test/support/synthetic-sweep.js";
import { since } from "../lib/stats.js";

export interface CompareRun {
  runs: number;
  pointsPerSeries: number;
  bodyBytes: number;
  parseMs: number;
  compareMs: number;
  /** Peak RSS with the runtime loaded and warm, before the body existed, and after the comparison, bytes. */
  idleRssBytes: number;
  peakRssBytes: number;
  findings: string[];
  failedRuns: number;
}

const peakRss = () => process.resourceUsage().maxRSS * 1024;
const [runs, points] = process.argv.slice(2).map(Number) as [number, number];
if (!(runs > 0) || !(points > 0)) throw new Error("usage: compare-analysis.ts <runs> <points per series>");

const LRS = [1e-4, 3e-4, 1e-3, 3e-3, 1e-2];
/** `n` runs: five learning rates, seeds added until there are enough. */
const sweep = (n: number, epochs: number) => {
  const seeds = Array.from({ length: Math.ceil(n / LRS.length) }, (_, i) => i + 1);
  return { runs: lrGrid(LRS, seeds, 3e-3, { epochs }).slice(0, n).map((spec) => syntheticRun(spec)) };
};

const logger = createLogger("silent");
const runtime = createServiceRuntime({ SERVICE_LOG_LEVEL: "silent" }, { logger });
const graph = buildExperimentGraph();
const compare = (body: unknown) => compareRequest(runtime, graph, body, { requestId: "bench", logger, deadline: new Deadline() });

await compare(sweep(10, 200));
const idleRssBytes = peakRss();
const text = JSON.stringify(sweep(runs, points));
let started = performance.now();
const body = parseJsonText(text);
const parseMs = since(started);
started = performance.now();
const response = await compare(body);
const compareMs = since(started);
const result: CompareRun = {
  runs,
  pointsPerSeries: points,
  bodyBytes: Buffer.byteLength(text),
  parseMs,
  compareMs,
  idleRssBytes,
  peakRssBytes: peakRss(),
  findings: response.findings.map((f) => f.id),
  failedRuns: response.runs.filter((r) => r.status === "failed").length,
};
process.send!(result, () => process.exit(0));
