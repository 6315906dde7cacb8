import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { trainingHistoryBody, trainingHistoryRequest } from "../data/training-history.js";
import type { BenchProfile } from "../lib/options.js";
import { runWorker } from "../lib/processes.js";
import { type BenchResult, type BenchRow, ratioOf } from "../lib/result.js";
import { buildOnce, childEnv, OUT_DIR, ROOT } from "../lib/service.js";
import { measureSizes, sizeLabel } from "../lib/sizes.js";
import { logLogSlope, median } from "../lib/stats.js";

/** What bench/workers/history-analysis.mjs measures of one size and sends back. */
interface HistoryRun {
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

const MB = 1024 ** 2;
const TARGET_POINTS = 1e6;
/** Issue 18: parse + analysis within 1.3× a native JSON.parse of the same body, in 512 MB, linear in points. */
const TARGET_RATIO = 1.3;
const TARGET_RSS_MB = 512;
const MAX_EXPONENT = 1.1;
/** Timed runs of one size stop once this much time is spent (the first always completes). */
const SIZE_BUDGET_MS = 20_000;
/** A size whose first analysis takes longer than this is reported as failed. */
const SIZE_TIMEOUT_MS = 180_000;

/** Writes a body for the worker to read under the git-ignored bench/out/; returns its path. */
function writeBody(name: string, body: Buffer): string {
  const file = join(OUT_DIR, name);
  writeFileSync(file, body);
  return file;
}

/** history_scaling: offline analysis time and peak RSS per history size, one child process per size. */
export async function benchHistoryScaling(profile: BenchProfile): Promise<BenchResult> {
  // The measured process runs the service's compiled modules (dist/) under plain node, as `npm start` does.
  buildOnce();
  // Warm-up bodies: a small history (parsed in place) and one of 1.3 MB (parsed and examined on the pool).
  const warmUpFiles = [
    writeBody("history-warm-small.json", Buffer.from(JSON.stringify(trainingHistoryRequest(1000)))),
    writeBody("history-warm-pool.json", trainingHistoryBody(25_000)),
  ];
  const { runs, failure } = await measureSizes(profile.historySizes, (points) => {
    // Written here, read by the worker: the measured process holds the body only as the service does, as bytes.
    const bodyFile = writeBody(`history-${points}.json`, trainingHistoryBody(points));
    const args = [String(points), String(profile.historyRepeats), String(SIZE_BUDGET_MS), bodyFile, ...warmUpFiles];
    return runWorker<HistoryRun>(join(ROOT, "bench/workers/history-analysis.mjs"), args, {
      cwd: ROOT,
      env: childEnv({}),
      logFile: join(OUT_DIR, `history-${points}.log`),
      timeoutMs: SIZE_TIMEOUT_MS,
      launcher: "node",
    });
  });
  if (runs.length < 2) throw new Error(failure ?? "fewer than two history sizes measured");
  const total = runs.map((r) => median(r.parseMs.map((p, i) => p + r.analysisMs[i]!)));
  const jsonParse = runs.map((r) => median(r.jsonParseMs));
  const exponent = logLogSlope(runs.map((r) => r.points), total);
  const rows: BenchRow[] = runs.flatMap((r, i): BenchRow[] => {
    const atTarget = r.points === TARGET_POINTS;
    return [
      {
        metric: `${sizeLabel(r.points)} points: parse + analysis`,
        value: total[i]!,
        unit: "ms",
        baseline: jsonParse[i]!,
        ratio: ratioOf(total[i]!, jsonParse[i]!),
        ...(atTarget ? { target: `≤ ${TARGET_RATIO}× JSON.parse`, met: total[i]! <= TARGET_RATIO * jsonParse[i]! } : {}),
      },
      { metric: `${sizeLabel(r.points)} points: of which analysis`, value: median(r.analysisMs), unit: "ms" },
      {
        metric: `${sizeLabel(r.points)} points: parse + analysis, CPU`,
        value: median(r.cpuMs),
        unit: "ms",
        baseline: median(r.jsonParseCpuMs),
        ratio: ratioOf(median(r.cpuMs), median(r.jsonParseCpuMs)),
      },
      {
        metric: `${sizeLabel(r.points)} points: peak RSS`,
        value: r.peakRssBytes / MB,
        unit: "MB",
        baseline: r.idleRssBytes / MB,
        ratio: ratioOf(r.peakRssBytes, r.idleRssBytes),
        ...(atTarget ? { target: `≤ ${TARGET_RSS_MB} MB`, met: r.peakRssBytes <= TARGET_RSS_MB * MB } : {}),
      },
    ];
  });
  rows.push({ metric: "growth exponent of time (log-log slope)", value: exponent, unit: "", target: `≤ ${MAX_EXPONENT}`, met: exponent <= MAX_EXPONENT });
  const largest = runs.length - 1;
  const measuredTarget = runs.some((r) => r.points === TARGET_POINTS);
  const targetPlanned = profile.historySizes.includes(TARGET_POINTS);
  const notes = [
    ...(failure ? [`Not measured: ${failure}.`] : []),
    ...(targetPlanned ? [] : ["10^6 points not measured in this profile: the full run judges the target."]),
    ...runs.filter((r) => Object.keys(r.errors).length > 0).map((r) => `Agent errors at ${sizeLabel(r.points)}: ${JSON.stringify(r.errors)}.`),
  ];
  return {
    name: "history_scaling",
    value: total[largest]!,
    unit: "ms",
    baseline: jsonParse[largest]!,
    ratio: ratioOf(total[largest]!, jsonParse[largest]!),
    target: `10^6 points × 6 metrics: ≤ ${TARGET_RATIO}× JSON.parse and ≤ ${TARGET_RSS_MB} MB peak RSS; growth exponent ≤ ${MAX_EXPONENT}`,
    ...(targetPlanned ? { met: measuredTarget && rows.every((r) => r.met !== false) } : {}),
    description: `offline analysis (service JSON parse + decode + graph, no LLM; dist/ under plain node, as npm start runs it) of a ${sizeLabel(runs[largest]!.points)}-step history × 6 metrics, median of up to ${profile.historyRepeats} (fewer when a size's runs pass ${SIZE_BUDGET_MS / 1000} s)`,
    baselineDescription: "native JSON.parse of the same body",
    ...(notes.length ? { note: notes.join(" ") } : {}),
    rows,
    detail: {
      sizes: runs.map((r, i) => ({
        points: r.points,
        metrics: 6,
        body_bytes: r.bodyBytes,
        parse_ms: r.parseMs,
        analysis_ms: r.analysisMs,
        json_parse_ms: r.jsonParseMs,
        cpu_ms: r.cpuMs,
        json_parse_cpu_ms: r.jsonParseCpuMs,
        total_ms_median: total[i],
        peak_rss_bytes: r.peakRssBytes,
        idle_rss_bytes: r.idleRssBytes,
        findings: r.findings,
      })),
      growth_exponent: exponent,
    },
  };
}
