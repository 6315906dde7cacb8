import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BenchProfile } from "../lib/options.js";
import { runCommand, runWorker } from "../lib/processes.js";
import { type BenchResult, type BenchRow, ratioOf } from "../lib/result.js";
import { childEnv, OUT_DIR, ROOT } from "../lib/service.js";
import type { StoresRun } from "../workers/run-stores.js";

const MB = 1024 ** 2;
/** Issue 35: the W&B reader ≥ 5× the wandb package on a 10⁶-row history, bounded memory; MLflow SQLite ≥ 5× mlflow. */
const TARGET_SPEEDUP = 5;
const HISTORY_ROWS = 1_000_000;
const MLFLOW_RUNS = 500;
/** The W&B scan's memory must not grow with the history: peak RSS over the idle process, at most this. */
const SCAN_RSS_GROWTH_MB = 64;
const TIMEOUT_MS = 60 * 60_000;
/** Generated once by the real libraries (scripts/fixtures/real/run_stores.py), kept in the git-ignored .cache/. */
const DATA_DIR = join(ROOT, ".cache", "bench-stores");

interface PythonRun {
  seconds: number;
  cpu_seconds: number;
  peak_rss_bytes: number;
  points: number;
  sum: number;
}

/** The venv with the real mlflow and wandb (scripts/fixtures/real/setup-stores-venv.sh); prints its python. */
async function storesPython(): Promise<string> {
  return (await runCommand("bash", ["scripts/fixtures/real/setup-stores-venv.sh"], { cwd: ROOT, env: childEnv({}), timeoutMs: 900_000 })).trim();
}

/** The bench's data, written by the real libraries the first time (minutes: wandb.log a million times). */
async function ensureData(python: string): Promise<{ wandbLog: string; mlflowDb: string }> {
  const env = childEnv({ WANDB_MODE: "offline" });
  const wandbDir = join(DATA_DIR, `wandb-${HISTORY_ROWS}`);
  const mlflowDir = join(DATA_DIR, `mlflow-${MLFLOW_RUNS}`);
  for (const [mode, dir, n] of [["bench-wandb", wandbDir, HISTORY_ROWS], ["bench-mlflow", mlflowDir, MLFLOW_RUNS]] as const) {
    if (existsSync(join(dir, ".complete"))) continue;
    await runCommand(python, ["scripts/fixtures/real/run_stores.py", mode, dir, String(n)], { cwd: ROOT, env, timeoutMs: TIMEOUT_MS });
    writeFileSync(join(dir, ".complete"), "");
  }
  const found = (await runCommand("bash", ["-c", `ls ${wandbDir}/wandb/*/run-*.wandb`], { cwd: ROOT, env, timeoutMs: 10_000 })).trim().split("\n")[0]!;
  return { wandbLog: found, mlflowDb: join(mlflowDir, "mlflow.db") };
}

function ours(mode: string, path: string): Promise<StoresRun> {
  return runWorker<StoresRun>(join(ROOT, "bench/workers/run-stores.ts"), [mode, path], { cwd: ROOT, env: childEnv({}), logFile: join(OUT_DIR, `run-stores-${mode}.log`), timeoutMs: TIMEOUT_MS });
}

async function python(py: string, args: string[]): Promise<PythonRun> {
  return JSON.parse(await runCommand(py, args, { cwd: ROOT, env: childEnv({}), timeoutMs: TIMEOUT_MS })) as PythonRun;
}

/** Rows of one comparison; whether the speed-up target is met. */
function compare(label: string, o: StoresRun, p: PythonRun, rows: BenchRow[], notes: string[]): boolean {
  const speedup = p.seconds / (o.ms / 1000);
  const met = speedup >= TARGET_SPEEDUP;
  rows.push(
    { metric: `${label}: wall time`, value: o.ms / 1000, unit: "s", baseline: p.seconds, ratio: ratioOf(o.ms / 1000, p.seconds) },
    { metric: `${label}: speed-up`, value: speedup, unit: "×", target: `≥ ${TARGET_SPEEDUP}×`, met, inTable: true },
    { metric: `${label}: CPU time (user + system)`, value: o.cpuMs / 1000, unit: "s", baseline: p.cpu_seconds, ratio: ratioOf(o.cpuMs / 1000, p.cpu_seconds) },
    { metric: `${label}: peak RSS`, value: o.peakRssBytes / MB, unit: "MB", baseline: p.peak_rss_bytes / MB, ratio: ratioOf(o.peakRssBytes, p.peak_rss_bytes) },
  );
  if (o.points !== p.points || Math.abs(o.sum - p.sum) > 1e-6 * Math.max(1, Math.abs(p.sum))) notes.push(`${label}: the client read ${o.points} points (sum ${o.sum}), Python ${p.points} (sum ${p.sum})`);
  return met && o.points === p.points;
}

/**
 * run_stores: the client's readers of the binary run stores next to the libraries that wrote them, on data those
 * libraries wrote: a 10⁶-row W&B history (wandb 0.31, offline) and a 500-run MLflow SQLite experiment (mlflow 3.17).
 */
export async function benchRunStores(_profile: BenchProfile): Promise<BenchResult> {
  const py = await storesPython();
  const { wandbLog, mlflowDb } = await ensureData(py);
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  const scan = await ours("wandb-scan", wandbLog);
  const full = await ours("wandb-rows", wandbLog);
  const wandbPy = await python(py, ["bench/python/wandb_read.py", wandbLog]);
  let met = compare("W&B 10⁶-row history, streamed", scan, wandbPy, rows, notes);
  const growth = (scan.peakRssBytes - scan.idleRssBytes) / MB;
  rows.push({ metric: "W&B streamed: RSS growth over the idle process", value: growth, unit: "MB", target: `≤ ${SCAN_RSS_GROWTH_MB} MB`, met: growth <= SCAN_RSS_GROWTH_MB });
  met &&= growth <= SCAN_RSS_GROWTH_MB;
  rows.push({ metric: "W&B: the client's whole read, to the CSV text analyse sends", value: full.ms / 1000, unit: "s", baseline: wandbPy.seconds, ratio: ratioOf(full.ms / 1000, wandbPy.seconds) });
  rows.push({ metric: "W&B whole read: peak RSS", value: full.peakRssBytes / MB, unit: "MB" });
  rows.push({ metric: "W&B whole read: metrics text sent", value: full.bytes / MB, unit: "MB", target: "< 64 MB (SERVICE_MAX_BODY_BYTES' default)", met: full.bytes < 64 * MB });
  const all = await ours("mlflow-all", mlflowDb);
  const allPy = await python(py, ["bench/python/mlflow_read.py", "all", mlflowDb]);
  met = compare(`MLflow SQLite, all ${MLFLOW_RUNS} runs' histories`, all, allPy, rows, notes) && met;
  const one = await ours("mlflow-run", mlflowDb);
  const onePy = await python(py, ["bench/python/mlflow_read.py", "run", mlflowDb]);
  met = compare("MLflow SQLite, the run analyse sends", one, onePy, rows, notes) && met;
  return {
    name: "run_stores",
    value: scan.ms / 1000,
    unit: "s",
    baseline: wandbPy.seconds,
    ratio: ratioOf(scan.ms / 1000, wandbPy.seconds),
    target: `≥ ${TARGET_SPEEDUP}× the wandb package on a 10⁶-row history with RSS growth ≤ ${SCAN_RSS_GROWTH_MB} MB; ≥ ${TARGET_SPEEDUP}× mlflow's client on a ${MLFLOW_RUNS}-run store`,
    met,
    description: `the client's readers of a W&B transaction log (${HISTORY_ROWS} history rows) and of an MLflow SQLite store (${MLFLOW_RUNS} runs × 3 metrics × 100 steps), both written by the real libraries; headline: the W&B streamed read, one run each`,
    baselineDescription: "wandb 0.31's own protobuf Record class over the LevelDB framing (bench/python/wandb_read.py; the package ships no reader of the log any more); MlflowClient.search_runs + get_metric_history per run and key (bench/python/mlflow_read.py)",
    note: notes.join(" "),
    rows,
    detail: { scan, full, wandbPy, all, allPy, one, onePy },
  };
}
