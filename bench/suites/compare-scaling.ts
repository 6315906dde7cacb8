import { join } from "node:path";
import type { BenchProfile } from "../lib/options.js";
import { runWorker } from "../lib/processes.js";
import type { BenchResult, BenchRow } from "../lib/result.js";
import { childEnv, OUT_DIR, ROOT } from "../lib/service.js";
import { logLogSlope } from "../lib/stats.js";
import type { CompareRun } from "../workers/compare-analysis.js";

const MB = 1024 ** 2;
const POINTS = 1e4;
/** Run counts measured: the full profile goes to the limit of one request (SERVICE_MAX_COMPARE_RUNS). */
const SIZES: Record<BenchProfile["mode"], number[]> = { full: [50, 100, 200, 500], quick: [50, 100] };
const SIZE_TIMEOUT_MS = 900_000;

/** compare_scaling: POST /v1/compare's work offline, 50 to 500 runs of 10^4 points per series, one process per size. */
export async function benchCompareScaling(profile: BenchProfile): Promise<BenchResult> {
  const runs: CompareRun[] = [];
  let failure: string | null = null;
  for (const n of SIZES[profile.mode]) {
    try {
      runs.push(
        await runWorker<CompareRun>(join(ROOT, "bench/workers/compare-analysis.ts"), [String(n), String(POINTS)], {
          cwd: ROOT,
          env: childEnv({}),
          logFile: join(OUT_DIR, `compare-${n}.log`),
          timeoutMs: SIZE_TIMEOUT_MS,
        }),
      );
    } catch (err) {
      failure = `${n} runs: ${(err as Error).message}`;
      break;
    }
  }
  if (runs.length < 2) throw new Error(failure ?? "fewer than two sizes measured");
  const total = runs.map((r) => r.parseMs + r.compareMs);
  const rows: BenchRow[] = runs.flatMap((r, i): BenchRow[] => [
    { metric: `${r.runs} runs: parse + comparison`, value: total[i]!, unit: "ms" },
    { metric: `${r.runs} runs: per run`, value: total[i]! / r.runs, unit: "ms" },
    { metric: `${r.runs} runs: peak RSS`, value: r.peakRssBytes / MB, unit: "MB", baseline: r.idleRssBytes / MB },
    { metric: `${r.runs} runs: body`, value: r.bodyBytes / MB, unit: "MB" },
  ]);
  const timeExponent = logLogSlope(runs.map((r) => r.runs), total);
  const rssGrowth = runs.map((r) => (r.peakRssBytes - r.idleRssBytes) / MB);
  rows.push({ metric: "growth exponent of time with runs (log-log slope)", value: timeExponent, unit: "" });
  rows.push({ metric: "growth exponent of RSS above idle with runs (log-log slope)", value: logLogSlope(runs.map((r) => r.runs), rssGrowth.map((x) => Math.max(x, 1))), unit: "" });
  const largest = runs.at(-1)!;
  return {
    name: "compare_scaling",
    value: total.at(-1)!,
    unit: "ms",
    description: `POST /v1/compare offline (service JSON parse, decode, per-run graph for every run, SERVICE_ANALYZER_WORKERS (3) at a time, cross-run detectors; no LLM) for ${largest.runs} runs × 2 series × ${POINTS} points`,
    ...(failure ? { note: `Not measured: ${failure}.` } : {}),
    rows,
    detail: { sizes: runs, growth_exponent_time: timeExponent },
  };
}
