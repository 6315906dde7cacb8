// Worker for run_stores: reads a W&B log or an MLflow SQLite store with the client's readers in a process of its
// own, so the peak RSS it reports is the read's. argv: <mode> <path>; modes:
//   wandb-scan   stream the log, keeping per key a count, a sum and the last value (what bounded memory means)
//   wandb-rows   the client's whole read of the run, to the CSV text analyse sends
//   mlflow-all   every run of the store with its full metric history, params and tags
//   mlflow-run   what analyse reads: the run list, then the chosen run in full
// Sends one StoresRun over IPC.
import { readWandbRun, scanWandbLog } from "../../client/detect/wandb-run.js";
import { listRuns, openSqliteCopy, readMlflowSqlite, readRun } from "../../client/detect/mlflow-sqlite.js";
import { since } from "../lib/stats.js";
import { statSync } from "node:fs";

export interface StoresRun {
  ms: number;
  idleRssBytes: number;
  peakRssBytes: number;
  /** History rows (W&B) or runs (MLflow) read. */
  rows: number;
  /** Numeric points read. */
  points: number;
  /** A checksum of the values, to compare with the Python side's. */
  sum: number;
  bytes: number;
}

const peakRss = () => process.resourceUsage().maxRSS * 1024;
const [mode, path] = process.argv.slice(2);
if (!mode || !path) throw new Error("usage: run-stores.ts <mode> <path>");

const idleRssBytes = peakRss();
const started = performance.now();
let rows = 0;
let points = 0;
let sum = 0;
/** Size of the metrics text sent (wandb-rows). */
let bytes = 0;
const finite = (v: number) => (Number.isFinite(v) ? v : 0);
if (mode === "wandb-scan") {
  const keys = new Map<string, { n: number; sum: number; last: number }>();
  await scanWandbLog(path, (r) => {
    if (r.kind !== "history") return;
    rows++;
    for (const [key, value] of r.row.values) {
      let k = keys.get(key);
      if (!k) keys.set(key, (k = { n: 0, sum: 0, last: 0 }));
      k.n++;
      k.sum += finite(value);
      k.last = value;
      points++;
      sum += finite(value);
    }
  });
} else if (mode === "wandb-rows") {
  const file = { path, relative: "run.wandb", size: statSync(path).size };
  const run = await readWandbRun(file, [file]);
  // What analyse sends: the CSV text built from the history.
  const csv = run.history.csv();
  rows = run.history.rows;
  points = run.history.points;
  for (const m of run.history.longRows()) sum += finite(m.value);
  bytes = csv?.content.length ?? 0;
} else if (mode === "mlflow-all") {
  const { db } = await openSqliteCopy(path);
  for (const info of listRuns(db)) {
    const run = readRun(db, info.runId);
    rows++;
    points += run.metrics.length;
    for (const m of run.metrics) sum += finite(m.value);
  }
  db.close();
} else if (mode === "mlflow-run") {
  const read = await readMlflowSqlite(path);
  rows = read?.run ? 1 : 0;
  points = read?.metrics.length ?? 0;
  for (const m of read?.metrics ?? []) sum += finite(m.value);
} else throw new Error(`unknown mode ${mode}`);
const run: StoresRun = { ms: since(started), idleRssBytes, peakRssBytes: peakRss(), rows, points, sum, bytes };
process.send!(run);
