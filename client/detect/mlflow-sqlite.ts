import { open, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import initSqlJs, { type Database, type SqlValue } from "sql.js";
import { applyWal } from "./sqlite-wal.js";

/** What every SQLite database file starts with. */
const SQLITE_MAGIC = "SQLite format 3\0";
/** The tables of MLflow's SQL tracking store this reader needs (mlflow/store/tracking/dbmodels/models.py). */
const MLFLOW_TABLES = ["runs", "metrics", "params", "tags", "experiments"];
/** MLflow stores ±Infinity as ±DBL_MAX (sqlalchemy_store.sanitize_metric_value) and NaN as 0 with is_nan = 1. */
const DBL_MAX = 1.7976931348623157e308;
/** RunStatus values of a run that has ended. */
const ENDED = new Set(["FINISHED", "FAILED", "KILLED"]);

/** One run's row of the `runs` table. */
export interface SqliteRunInfo {
  runId: string;
  name: string | null;
  status: string;
  startTime: number | null;
  experimentId: string;
  experimentName: string | null;
  deleted: boolean;
}

/** The run chosen from a store, read in full, and the others. */
export interface SqliteStoreRead {
  run: SqliteRunInfo | null;
  metrics: Array<{ key: string; value: number; step: number; timestamp: number }>;
  params: Record<string, string>;
  tags: Record<string, string>;
  /** Live runs not chosen (newest first). */
  others: SqliteRunInfo[];
  deleted: number;
  /** What was read of a `-wal` file beside the db. */
  wal: { frames: number; ignored: number } | null;
}

let engine: Promise<Awaited<ReturnType<typeof initSqlJs>>> | null = null;
/** sql.js's WebAssembly build, loaded once from its own package (no network, no native build). */
function sqlJs() {
  const wasm = join(dirname(createRequire(import.meta.url).resolve("sql.js")), "sql-wasm.wasm");
  engine ??= initSqlJs({ locateFile: () => wasm });
  return engine;
}

/** Whether bytes start like a SQLite database. */
export function isSqliteHeader(head: Uint8Array): boolean {
  return head.length >= 16 && Buffer.from(head.buffer, head.byteOffset, 16).toString("latin1") === SQLITE_MAGIC;
}

/** Whether a file is a SQLite database, by its first 16 bytes. */
export async function isSqliteFile(path: string): Promise<boolean> {
  const fh = await open(path, "r").catch(() => null);
  if (!fh) return false;
  try {
    const head = Buffer.alloc(16);
    const { bytesRead } = await fh.read(head, 0, 16, 0);
    return bytesRead === 16 && isSqliteHeader(head);
  } finally {
    await fh.close();
  }
}

/**
 * Opens a copy of the database's bytes in memory: the user's file is read, never opened by SQLite, so it is not
 * locked or written whatever state it is in. A `-wal` file beside it is folded in (committed transactions only),
 * so a store whose process is still running or crashed before a checkpoint reads as SQLite would read it.
 */
export async function openSqliteCopy(path: string): Promise<{ db: Database; wal: SqliteStoreRead["wal"] }> {
  let bytes: Uint8Array = await readFile(path);
  const walBytes = await readFile(`${path}-wal`).catch(() => null);
  let wal: SqliteStoreRead["wal"] = null;
  if (walBytes) {
    const applied = applyWal(bytes, walBytes);
    bytes = applied.bytes === bytes ? new Uint8Array(bytes) : applied.bytes;
    wal = { frames: applied.frames, ignored: applied.ignored };
  }
  // Header bytes 18-19 say "WAL mode" in such a file: the in-memory copy is opened as a plain (rollback) database.
  if (bytes[18] === 2) bytes[18] = 1;
  if (bytes[19] === 2) bytes[19] = 1;
  const SQL = await sqlJs();
  return { db: new SQL.Database(bytes), wal };
}

function rows(db: Database, sql: string, params: SqlValue[] = []): Array<Record<string, SqlValue>> {
  const stmt = db.prepare(sql);
  try {
    stmt.bind(params);
    const out: Array<Record<string, SqlValue>> = [];
    while (stmt.step()) out.push(stmt.getAsObject());
    return out;
  } finally {
    stmt.free();
  }
}

/** Whether an open database has MLflow's tracking tables. */
export function isMlflowStore(db: Database): boolean {
  const names = new Set(rows(db, "SELECT name FROM sqlite_master WHERE type = 'table'").map((r) => String(r.name)));
  return MLFLOW_TABLES.every((t) => names.has(t));
}

/** The store's runs, newest first. */
export function listRuns(db: Database): SqliteRunInfo[] {
  return rows(
    db,
    `SELECT r.run_uuid, r.name, r.status, r.start_time, r.lifecycle_stage, r.experiment_id, e.name AS experiment_name
     FROM runs r LEFT JOIN experiments e ON e.experiment_id = r.experiment_id
     ORDER BY r.start_time DESC, r.run_uuid`,
  ).map((r) => ({
    runId: String(r.run_uuid),
    name: r.name === null ? null : String(r.name),
    status: String(r.status ?? ""),
    startTime: typeof r.start_time === "number" ? r.start_time : null,
    experimentId: String(r.experiment_id),
    experimentName: r.experiment_name === null ? null : String(r.experiment_name),
    deleted: r.lifecycle_stage === "deleted",
  }));
}

/**
 * The run to send: the one `wanted` names (run id, else run name), else the newest run that ended (FINISHED,
 * FAILED, KILLED) and failing that the newest run; `newest` takes the newest run whatever its state (what `watch`
 * follows: the run training now). Deleted runs are never chosen unless named.
 */
export function chooseRun(runs: readonly SqliteRunInfo[], wanted: string | null, newest = false): SqliteRunInfo | null {
  if (wanted) return runs.find((r) => r.runId === wanted) ?? runs.find((r) => r.name === wanted) ?? null;
  const live = runs.filter((r) => !r.deleted);
  return (newest ? undefined : live.find((r) => ENDED.has(r.status))) ?? live[0] ?? null;
}

/** A metric row's value as MLflow means it: NaN for is_nan rows, ±Infinity for ±DBL_MAX. */
function metricValue(value: SqlValue, isNan: SqlValue): number {
  if (isNan === 1) return Number.NaN;
  const v = Number(value);
  return v >= DBL_MAX ? Number.POSITIVE_INFINITY : v <= -DBL_MAX ? Number.NEGATIVE_INFINITY : v;
}

/**
 * Reads one run's metric history (every logged point, as `get_metric_history` gives), params and tags. The points
 * are fetched in index order and sorted here: an ORDER BY makes SQLite build a temporary B-tree, 2-3× slower in WASM.
 */
export function readRun(db: Database, runId: string): Pick<SqliteStoreRead, "metrics" | "params" | "tags"> {
  const metrics: SqliteStoreRead["metrics"] = [];
  const stmt = db.prepare("SELECT key, value, timestamp, step, is_nan FROM metrics WHERE run_uuid = ?");
  try {
    stmt.bind([runId]);
    while (stmt.step()) {
      const [key, value, timestamp, step, isNan] = stmt.get();
      metrics.push({ key: String(key), value: metricValue(value ?? null, isNan ?? null), step: Number(step ?? 0), timestamp: Number(timestamp) });
    }
  } finally {
    stmt.free();
  }
  metrics.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.step - b.step || a.timestamp - b.timestamp));
  const pairs = (table: string) => Object.fromEntries(rows(db, `SELECT key, value FROM ${table} WHERE run_uuid = ?`, [runId]).map((r) => [String(r.key), String(r.value ?? "")]));
  return { metrics, params: pairs("params"), tags: pairs("tags") };
}

/** Reads an MLflow SQLite store: the chosen run in full, the others listed. Null when the file is not one. */
export async function readMlflowSqlite(path: string, wanted: string | null = null, newest = false): Promise<SqliteStoreRead | null> {
  const { db, wal } = await openSqliteCopy(path);
  try {
    if (!isMlflowStore(db)) return null;
    const runs = listRuns(db);
    const run = chooseRun(runs, wanted, newest);
    const read = run ? readRun(db, run.runId) : { metrics: [], params: {}, tags: {} };
    return { run, ...read, others: runs.filter((r) => r !== run && !r.deleted), deleted: runs.filter((r) => r.deleted && r !== run).length, wal };
  } finally {
    db.close();
  }
}
