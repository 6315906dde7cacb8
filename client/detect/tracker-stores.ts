import { basename, dirname, sep } from "node:path";
import { isSqliteFile, readMlflowSqlite, type SqliteRunInfo } from "./mlflow-sqlite.js";
import type { FoundFile } from "./walk.js";
import { folderTime, isWandbLogFile, readWandbRun } from "./wandb-run.js";

/** A file as detect-run locates it. */
export interface StoreFile {
  file: FoundFile;
  shown: string;
  named: boolean;
}

/** One run read from a binary tracking store, ready to merge into the request. */
export interface StoreRun {
  /** `metadata` key: "mlflow" or "wandb". */
  tracker: "mlflow" | "wandb";
  metadata: Record<string, unknown>;
  params: Record<string, unknown>;
  /** `training_artifacts.metrics`: long rows (MLflow), CSV text (W&B); null when the run logged no number. */
  metrics: unknown;
  /** Where the metrics came from, as shown to the user, and what they are. */
  source: string;
  label: string;
}

export interface StoreReading {
  runs: StoreRun[];
  used: Array<{ source: string; target: string; label: string }>;
  skipped: Array<{ source: string; reason: string; problem: boolean }>;
  /** Paths of every file the stores account for (used or listed as skipped here). */
  consumed: Set<string>;
}

/** How many other runs are named in the "not sent" line of a store; the rest are counted. */
const NAMED_OTHERS = 5;

/**
 * Finds and reads the binary run stores among the files: MLflow 3's SQLite store (`mlflow.db`, told by its SQLite
 * header and MLflow's tables) and W&B run folders (told by the `:W&B` header of `run-*.wandb`). One run of each is
 * read (the newest ended MLflow run, the newest W&B run folder, or the run `wanted` names); the others are listed
 * as not sent.
 */
export async function readTrackerStores(files: readonly StoreFile[], wanted: string | null = null): Promise<StoreReading> {
  const out: StoreReading = { runs: [], used: [], skipped: [], consumed: new Set() };
  for (const f of files) {
    if (f.file.size < 512 || f.file.path.endsWith("-wal") || f.file.path.endsWith("-journal") || f.file.path.endsWith("-shm")) continue;
    if (await isSqliteFile(f.file.path)) await addSqlite(f, files, out, wanted);
  }
  const logs: StoreFile[] = [];
  for (const f of files) if (!out.consumed.has(f.file.path) && (await isWandbLogFile(f.file))) logs.push(f);
  // Newest first by the folder's start time (W&B names run folders run-YYYYMMDD_HHMMSS-<id>).
  logs.sort((a, b) => folderTime(dirname(b.file.relative)).localeCompare(folderTime(dirname(a.file.relative))));
  // --run names a W&B run by its id, the end of its folder's and log's names (run-<id>.wandb).
  const chosen = wanted === null ? logs[0] : logs.find((l) => basename(l.file.path) === `run-${wanted}.wandb`);
  if (wanted !== null && logs.length > 0 && !chosen && out.runs.length === 0) {
    out.skipped.push({ source: dirname(dirname(logs[0]!.shown)), reason: `no W&B run ${wanted} here (runs: ${logs.map((l) => basename(l.file.path).slice(4, -6)).join(", ")})`, problem: true });
  }
  for (const log of logs) await addWandb(log, files, out, log !== chosen);
  return out;
}

async function addSqlite(f: StoreFile, files: readonly StoreFile[], out: StoreReading, wanted: string | null): Promise<void> {
  let read;
  try {
    read = await readMlflowSqlite(f.file.path, wanted);
  } catch (err) {
    out.skipped.push({ source: f.shown, reason: `a SQLite file that could not be read: ${(err as Error).message}`, problem: f.named });
    out.consumed.add(f.file.path);
    return;
  }
  if (!read) return;
  out.consumed.add(f.file.path);
  for (const side of ["-wal", "-shm", "-journal"]) {
    const beside = files.find((g) => g.file.path === `${f.file.path}${side}`);
    if (!beside) continue;
    out.consumed.add(beside.file.path);
    if (side === "-wal") out.used.push({ source: beside.shown, target: "training_artifacts.metrics", label: `SQLite write-ahead log: ${read.wal?.frames ?? 0} committed pages folded in, ${read.wal?.ignored ?? 0} uncommitted left out` });
    else if (side === "-shm") out.skipped.push({ source: beside.shown, reason: "SQLite's WAL index, not data", problem: false });
    else out.skipped.push({ source: beside.shown, reason: "SQLite's rollback journal: a write was under way (or its writer crashed); the store is read as it is on disk", problem: false });
  }
  const { run } = read;
  if (!run) {
    const reason = wanted === null ? "an MLflow store with no live run" : `no run ${wanted} in the store (its runs: ${read.others.slice(0, NAMED_OTHERS).map((r) => r.name ?? r.runId).join(", ")}…)`;
    out.skipped.push({ source: f.shown, reason, problem: f.named || wanted !== null });
    return;
  }
  const name = run.name ?? run.runId;
  out.runs.push({
    tracker: "mlflow",
    metadata: { run_id: run.runId, run_name: run.name, experiment_id: run.experimentId, experiment_name: run.experimentName, status: run.status, tags: read.tags, store: "sqlite" },
    params: read.params,
    metrics: read.metrics.length > 0 ? read.metrics : null,
    source: f.shown,
    label: `MLflow SQLite store, run ${name} (${run.status.toLowerCase()}, ${new Set(read.metrics.map((m) => m.key)).size} metric keys, ${Object.keys(read.params).length} params)`,
  });
  if (read.others.length > 0) out.skipped.push({ source: f.shown, reason: othersReason(read.others, name, wanted !== null), problem: false });
  if (read.deleted > 0) out.skipped.push({ source: f.shown, reason: `${read.deleted} deleted run${read.deleted > 1 ? "s" : ""} in the store: not read`, problem: false });
}

function othersReason(others: readonly SqliteRunInfo[], chosen: string, named: boolean): string {
  const names = others.slice(0, NAMED_OTHERS).map((r) => `${r.name ?? r.runId} (${r.status.toLowerCase()})`);
  const more = others.length > NAMED_OTHERS ? ` and ${others.length - NAMED_OTHERS} more` : "";
  const why = named ? `${chosen} is the run --run names` : `the newest ended run, ${chosen}, is analysed (--run <id|name> picks another)`;
  return `${others.length} other run${others.length > 1 ? "s" : ""} in the store not sent (${names.join(", ")}${more}): ${why}; one run per analysis`;
}

async function addWandb(log: StoreFile, files: readonly StoreFile[], out: StoreReading, other: boolean): Promise<void> {
  const folder = dirname(log.file.relative);
  const prefix = folder === "." ? "" : `${folder}${sep}`;
  const inFolder = files.filter((g) => g.file.relative.startsWith(prefix));
  const shownFolder = dirname(log.shown);
  if (other) {
    out.consumed.add(log.file.path);
    out.skipped.push({ source: `${shownFolder}/`, reason: "another W&B run: one run per analysis (name its folder, or --run <id>)", problem: false });
    for (const g of inFolder) out.consumed.add(g.file.path);
    return;
  }
  let run;
  try {
    run = await readWandbRun(log.file, inFolder.map((g) => g.file));
  } catch (err) {
    out.consumed.add(log.file.path);
    out.skipped.push({ source: log.shown, reason: `W&B log not readable: ${(err as Error).message}`, problem: true });
    return;
  }
  const shown = (file: FoundFile) => files.find((g) => g.file.path === file.path)?.shown ?? file.relative;
  for (const u of run.used) {
    out.consumed.add(u.file.path);
    if (u.file !== log.file) out.used.push({ source: shown(u.file), target: "training_artifacts.params", label: u.label });
  }
  for (const s of run.skipped) {
    out.consumed.add(s.file.path);
    out.skipped.push({ source: shown(s.file), reason: s.reason, problem: false });
  }
  // No exit record yet: the run is still writing (or was killed before it could write one).
  const status = run.exitCode === null ? "running" : run.exitCode === 0 ? "finished" : "failed";
  out.runs.push({
    tracker: "wandb",
    metadata: { run_id: run.runId, run_name: run.name, project: run.project, summary: run.summary, exit_code: run.exitCode, status },
    params: run.params,
    metrics: run.history.csv(),
    source: log.shown,
    label: `${run.used[0]!.label} of ${basename(folder)}`,
  });
}
