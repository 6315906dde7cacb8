import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";

/** A JSON-friendly cell: DuckDB's 64-bit integers become numbers (counts and ids stay below 2^53 in practice). */
export type Cell = number | string | boolean | null | Cell[];
export type Row = Record<string, Cell>;

/** One in-process DuckDB database for one computation, spilling to its own temporary folder. */
export interface Engine {
  /** Runs a statement for its effect. */
  run(sql: string): Promise<void>;
  /** Runs a query and returns its rows as plain JS values. */
  rows(sql: string): Promise<Row[]>;
  /**
   * Streams a query whose columns are all non-null DOUBLEs chunk by chunk: `visit` gets each column's values of
   * the chunk, so millions of rows reach JS without a JS object per row.
   */
  scanDoubles(sql: string, visit: (columns: Float64Array[], rows: number) => void): Promise<void>;
  /** Share of the running query done (0–1), or null when DuckDB cannot tell. */
  progress(): number | null;
  /**
   * Another connection to the same database, to run a statistic family while this one runs another: it sees the
   * loaded tables (not this one's temporary tables); its close() closes only itself.
   */
  fork(): Promise<Engine>;
  /** DuckDB's version, recorded in the artifact's metadata. */
  version(): Promise<string>;
  close(): Promise<void>;
}

function toCell(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "number" || typeof v === "string" || typeof v === "boolean") return v;
  if (Array.isArray(v)) return v.map(toCell);
  if (v instanceof Date) return v.toISOString();
  return String(v);
}

/** The queries of one connection. */
function session(connection: DuckDBConnection): Pick<Engine, "run" | "rows" | "scanDoubles" | "progress"> {
  return {
    async run(sql) {
      await connection.run(sql);
    },
    async rows(sql) {
      const reader = await connection.runAndReadAll(sql);
      return reader.getRowObjectsJS().map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, toCell(v)])));
    },
    async scanDoubles(sql, visit) {
      const result = await connection.stream(sql);
      const columns = Array.from({ length: result.columnCount }, () => new Float64Array(0));
      for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
        const rows = chunk.rowCount;
        for (let c = 0; c < columns.length; c++) {
          if (columns[c]!.length < rows) columns[c] = new Float64Array(rows);
          const vector = chunk.getColumnVector(c);
          const into = columns[c]!;
          for (let r = 0; r < rows; r++) into[r] = vector.getItem(r) as number;
        }
        visit(columns, rows);
      }
    },
    progress() {
      const p = connection.progress;
      return p.total_rows_to_process > 0n ? Number(p.rows_processed) / Number(p.total_rows_to_process) : null;
    },
  };
}

/**
 * Opens an in-memory database whose larger-than-memory work (loading, sorting, hashing) spills to a fresh
 * folder under `workDir` (the OS temp dir by default), removed on close; `threads` defaults to every core.
 */
export async function openEngine(options: { workDir?: string; threads?: number } = {}): Promise<Engine> {
  const spill = await mkdtemp(join(options.workDir ?? tmpdir(), "ml-diagnose-duckdb-"));
  const config: Record<string, string> = { temp_directory: spill, preserve_insertion_order: "false" };
  if (options.threads) config.threads = String(options.threads);
  let connection: DuckDBConnection;
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(":memory:", config);
    connection = await instance.connect();
  } catch (e) {
    await rm(spill, { recursive: true, force: true });
    throw e;
  }
  const engine: Engine = {
    ...session(connection),
    async fork() {
      const other = await instance.connect();
      return { ...session(other), fork: engine.fork, version: engine.version, close: async () => other.closeSync() };
    },
    async version() {
      const [row] = await engine.rows("SELECT version() AS v");
      return String(row?.v ?? "unknown");
    },
    async close() {
      connection.closeSync();
      instance.closeSync();
      await rm(spill, { recursive: true, force: true });
    },
  };
  return engine;
}
