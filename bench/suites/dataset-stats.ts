import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeBenchTables } from "../data/tables.js";
import type { BenchProfile } from "../lib/options.js";
import { runCommand, runWorker } from "../lib/processes.js";
import { type BenchResult, type BenchRow, ratioOf } from "../lib/result.js";
import { childEnv, OUT_DIR, ROOT } from "../lib/service.js";
import { round } from "../lib/stats.js";
import type { StatsRun } from "../workers/dataset-stats.js";

const MB = 1024 ** 2;
/** Issue 14: at least 3× faster than pandas on CSV and 10× on Parquet, with a lower peak RSS. */
const TARGET_SPEEDUP = { csv: 3, parquet: 10 } as const;
const TIMEOUT_MS = 45 * 60_000;

interface PandasRun {
  seconds: number;
  steps_ms: Record<string, number>;
  peak_rss_bytes: number;
  rows: number;
  duplicates: number;
  overlap: number;
  pandas: string;
}

/** The pandas baseline for one format, or the reason it is unavailable. */
async function pandasBaseline(train: string, test: string, format: "csv" | "parquet"): Promise<PandasRun | string> {
  const env = childEnv({});
  try {
    const python = (await runCommand("bash", ["bench/python/setup-pandas.sh"], { cwd: ROOT, env, timeoutMs: 600_000 })).trim();
    return JSON.parse(await runCommand(python, ["bench/python/pandas_dataset.py", train, test, format], { cwd: ROOT, env, timeoutMs: TIMEOUT_MS })) as PandasRun;
  } catch (err) {
    return `pandas baseline unavailable: ${(err as Error).message}`;
  }
}

const steps = (ms: Record<string, number>) => Object.entries(ms).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(", ");

/**
 * dataset_stats: the client's dataset statistics (client/dataset) of a generated train/test pair, as CSV and as
 * Parquet, next to pandas' describe() plus duplicates and overlap on the same files; one run each.
 */
export async function benchDatasetStats(profile: BenchProfile): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), "bench-dataset-"));
  try {
    const tables = await writeBenchTables(dir, profile.datasetRows);
    const rows: BenchRow[] = [];
    const detail: Record<string, unknown> = { tables };
    const notes: string[] = [];
    let met = true;
    let csv: { ours: number; pandas: number | null } | null = null;
    for (const format of ["csv", "parquet"] as const) {
      const { train, test } = tables.files[format];
      const ours = await runWorker<StatsRun>(join(ROOT, "bench/workers/dataset-stats.ts"), [train, test], {
        cwd: ROOT,
        env: childEnv({}),
        logFile: join(OUT_DIR, `dataset-stats-${format}.log`),
        timeoutMs: TIMEOUT_MS,
      });
      const pandas = await pandasBaseline(train, test, format);
      const p = typeof pandas === "string" ? null : pandas;
      if (typeof pandas === "string") notes.push(pandas);
      if (p && (p.duplicates !== ours.duplicates || p.overlap !== ours.overlap)) {
        notes.push(`${format}: pandas counts ${p.duplicates} duplicates and ${p.overlap} overlapping rows, the client ${ours.duplicates} and ${ours.overlap}`);
        met = false;
      }
      const speedup = p ? p.seconds / (ours.ms / 1000) : null;
      const formatMet = speedup !== null && speedup >= TARGET_SPEEDUP[format] && p !== null && ours.peakRssBytes < p.peak_rss_bytes;
      met &&= formatMet;
      if (format === "csv") csv = { ours: ours.ms / 1000, pandas: p?.seconds ?? null };
      rows.push(
        { metric: `${format}: wall time`, value: ours.ms / 1000, unit: "s", baseline: p?.seconds ?? null, ratio: ratioOf(ours.ms / 1000, p?.seconds) },
        { metric: `${format}: speed-up over pandas`, value: speedup, unit: "×", target: `≥ ${TARGET_SPEEDUP[format]}×`, met: speedup !== null && speedup >= TARGET_SPEEDUP[format], inTable: true },
        { metric: `${format}: peak RSS`, value: ours.peakRssBytes / MB, unit: "MB", baseline: p ? p.peak_rss_bytes / MB : null, ratio: ratioOf(ours.peakRssBytes, p?.peak_rss_bytes), target: "below pandas'", met: p !== null && ours.peakRssBytes < p.peak_rss_bytes },
      );
      notes.push(`${format} profile, client: ${steps(ours.stepsMs)}${p ? `; pandas ${p.pandas}: ${steps(p.steps_ms)}` : ""}.`);
      detail[format] = { ours, pandas };
    }
    return {
      name: "dataset_stats",
      value: csv?.ours ?? null,
      unit: "s",
      baseline: csv?.pandas ?? null,
      ratio: ratioOf(csv?.ours, csv?.pandas),
      target: `≥ ${TARGET_SPEEDUP.csv}× pandas on CSV, ≥ ${TARGET_SPEEDUP.parquet}× on Parquet; peak RSS below pandas'`,
      met,
      description: `client dataset statistics (every column's statistics, duplicates, overlap, drift, and with --target the label signal of every feature and conflicting labels) of a generated ${round(profile.datasetRows / 1e6)} M-row × 21-column train file and a test file a tenth its size (CSV ${round(tables.bytes.csv / MB)} MB, Parquet ${round(tables.bytes.parquet / MB)} MB); headline: CSV wall time, one run`,
      baselineDescription: "pandas read_csv / read_parquet + describe(include='all') + duplicated().sum() + merge for the overlap (bench/python/pandas_dataset.py), one run; it computes no drift",
      note: notes.join(" "),
      rows,
      detail,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
