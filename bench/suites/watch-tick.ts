import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HISTORY_METRICS, trainingHistory } from "../data/training-history.js";
import { RunFollower } from "../../client/watch/follow-run.js";
import { stringifyRequest } from "../../client/request/json.js";
import { detectTrainingFindings } from "../../nodes/training/detect.js";
import { parseTrainingArtifact } from "../../nodes/training/parse/index.js";
import type { BenchProfile } from "../lib/options.js";
import { type BenchResult, type BenchRow, ratioOf } from "../lib/result.js";
import { sizeLabel } from "../lib/sizes.js";
import { logLogSlope, median } from "../lib/stats.js";

/** Rows a tick brings: a run logging every step for a 30 s interval at ~30 steps/s. */
const TICK_ROWS = 1000;
const TICKS = 3;

interface SizeRun {
  rows: number;
  readMs: number[];
  wholeReadMs: number[];
  clientMs: number[];
  serviceMs: number[];
  bodyBytes: number;
}

/**
 * One size: a CSV log of `rows` rows × 6 metrics in a temporary folder, followed by the real RunFollower; each
 * tick appends TICK_ROWS rows, reads what was appended, builds and serializes the request as `watch` does, then
 * the service's work on it (JSON parse, training parse, every detector as a running run with detected_at_step).
 */
async function measureSize(rows: number): Promise<SizeRun> {
  const h = trainingHistory(rows + TICKS * TICK_ROWS);
  const line = (i: number) => `${i},${HISTORY_METRICS.map((m) => h[m][i]).join(",")}\n`;
  const dir = await mkdtemp(join(tmpdir(), "watch-tick-"));
  const path = join(dir, "history.csv");
  try {
    const lines = [`step,${HISTORY_METRICS.join(",")}\n`];
    for (let i = 0; i < rows; i++) lines.push(line(i));
    await writeFile(path, lines.join(""));
    const follower = new RunFollower(dir);
    await follower.poll();
    const out: SizeRun = { rows, readMs: [], wholeReadMs: [], clientMs: [], serviceMs: [], bodyBytes: 0 };
    for (let t = 0; t < TICKS; t++) {
      const from = rows + t * TICK_ROWS;
      await appendFile(path, Array.from({ length: TICK_ROWS }, (_, k) => line(from + k)).join(""));
      const t0 = performance.now();
      const poll = await follower.poll();
      const t1 = performance.now();
      const body = stringifyRequest({ training_artifacts: follower.artifact(true) });
      const t2 = performance.now();
      const request = JSON.parse(body) as { training_artifacts: Record<string, unknown> };
      detectTrainingFindings(parseTrainingArtifact(request.training_artifacts));
      const t3 = performance.now();
      await readFile(path, "utf8");
      const t4 = performance.now();
      if (poll.added !== TICK_ROWS) throw new Error(`a tick read ${poll.added} rows, expected ${TICK_ROWS}`);
      out.readMs.push(t1 - t0);
      out.clientMs.push(t2 - t1);
      out.serviceMs.push(t3 - t2);
      out.wholeReadMs.push(t4 - t3);
      out.bodyBytes = body.length;
    }
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** watch_tick: cost of one `ml-diagnose watch` tick on a growing CSV log, by log size. */
export async function benchWatchTick(profile: BenchProfile): Promise<BenchResult> {
  const runs: SizeRun[] = [];
  for (const rows of profile.historySizes) runs.push(await measureSize(rows));
  const tick = runs.map((r) => median(r.readMs) + median(r.clientMs) + median(r.serviceMs));
  const rowsOf = runs.map((r) => r.rows);
  const readExponent = logLogSlope(rowsOf, runs.map((r) => median(r.readMs)));
  const tickExponent = logLogSlope(rowsOf, tick);
  const table: BenchRow[] = runs.flatMap((r, i): BenchRow[] => [
    { metric: `${sizeLabel(r.rows)} rows: read of ${TICK_ROWS} appended rows`, value: median(r.readMs), unit: "ms", baseline: median(r.wholeReadMs), ratio: ratioOf(median(r.readMs), median(r.wholeReadMs)) },
    { metric: `${sizeLabel(r.rows)} rows: request built and serialized (client)`, value: median(r.clientMs), unit: "ms" },
    { metric: `${sizeLabel(r.rows)} rows: re-analysis (service parse + detectors)`, value: median(r.serviceMs), unit: "ms" },
    { metric: `${sizeLabel(r.rows)} rows: whole tick`, value: tick[i]!, unit: "ms" },
  ]);
  table.push({ metric: "growth exponent of the appended read (log-log slope)", value: readExponent, unit: "" });
  table.push({ metric: "growth exponent of the whole tick (log-log slope)", value: tickExponent, unit: "" });
  const largest = runs.length - 1;
  return {
    name: "watch_tick",
    value: tick[largest]!,
    unit: "ms",
    baseline: median(runs[largest]!.wholeReadMs),
    ratio: ratioOf(median(runs[largest]!.readMs), median(runs[largest]!.wholeReadMs)),
    description: `one ml-diagnose watch tick on a ${sizeLabel(runs[largest]!.rows)}-row × 6-metric CSV log (client/watch RunFollower on a real file): read of the ${TICK_ROWS} rows appended since the last tick, request built and serialized, then the service's JSON parse, training parse and every detector as a running run (in-process, no HTTP); median of ${TICKS} ticks. Ratio: appended read ÷ baseline`,
    baselineDescription: "reading the whole log once, what a watcher that re-reads its file per tick would pay before any analysis",
    rows: table,
    detail: { tick_rows: TICK_ROWS, ticks: TICKS, sizes: runs.map((r) => ({ rows: r.rows, read_ms: r.readMs, whole_read_ms: r.wholeReadMs, client_ms: r.clientMs, service_ms: r.serviceMs, body_bytes: r.bodyBytes })) },
  };
}
