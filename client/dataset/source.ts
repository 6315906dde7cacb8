import { createReadStream } from "node:fs";
import { access, constants, stat } from "node:fs/promises";
import { basename } from "node:path";
import { createInterface } from "node:readline";
import { createGunzip } from "node:zlib";
import { FLOAT_TYPE } from "./dtype.js";
import type { Engine } from "./engine.js";
import { DatasetError } from "./errors.js";
import { ident, literal } from "./sql.js";

export type FileFormat = "csv" | "tsv" | "parquet" | "jsonl";

/** A data file known by its name: `.csv`, `.tsv`/`.tab`, `.parquet`/`.pq`, `.jsonl`/`.ndjson`, each optionally `.gz`. */
export interface DataSource {
  path: string;
  format: FileFormat;
  gzip: boolean;
}

/** A loaded table: its name in the engine and its columns with DuckDB types, in file order. */
export interface LoadedTable {
  table: string;
  source: DataSource;
  columns: Array<{ name: string; type: string }>;
  rows: number;
  /**
   * The same rows with NaN as the file holds it, for passes that set NaN apart themselves: a Parquet file read in
   * place replaces NaN on every row it reads, which costs a grouping 0.1 CPU-seconds per 10 M-row float column
   * more than leaving NaN in and dropping its group after. A loaded text file's table itself (NaN missing already).
   */
  rawTable: string;
}

const EXTENSIONS: Array<[RegExp, FileFormat]> = [
  [/\.csv$/i, "csv"],
  [/\.(tsv|tab)$/i, "tsv"],
  [/\.(parquet|pq)$/i, "parquet"],
  [/\.(jsonl|ndjson)$/i, "jsonl"],
];

/** The format of a file from its name; Parquet compresses itself, so `.parquet.gz` is refused. */
export function dataSourceOf(path: string): DataSource {
  const gzip = /\.gz$/i.test(path);
  const name = gzip ? path.slice(0, -3) : path;
  const found = EXTENSIONS.find(([re]) => re.test(name));
  if (!found || (gzip && found[1] === "parquet")) {
    throw new DatasetError(
      "UNREADABLE_FILE",
      `${path}: unknown data format; name the file .csv, .tsv, .parquet or .jsonl (text formats may end in .gz)`,
      { file: path },
    );
  }
  return { path, format: found[1], gzip };
}

const DELIMITER: Record<"csv" | "tsv", string> = { csv: ",", tsv: "\t" };

/** The DuckDB table function that reads the file (options fixed where we know better than the sniffer). */
function reader(src: DataSource): string {
  const p = literal(src.path);
  switch (src.format) {
    case "csv":
    case "tsv":
      return `read_csv(${p}, delim=${literal(DELIMITER[src.format])}, header=true)`;
    case "parquet":
      return `read_parquet(${p})`;
    case "jsonl":
      return `read_json(${p}, format='newline_delimited')`;
    default:
      throw new Error(`unhandled format ${src.format satisfies never}`);
  }
}

/**
 * Loads a text data file into a table once, so every statistic family reads columnar memory instead of re-parsing
 * the text; a Parquet file is read in place through a view. NaN becomes missing, as pandas reads it; every
 * malformed-input case becomes a DatasetError that names the file, and the column and line when they are known.
 */
export async function loadTable(engine: Engine, src: DataSource, table: string): Promise<LoadedTable> {
  await checkReadable(src.path);
  if (src.format === "csv" || src.format === "tsv") await checkCsvShape(engine, src);
  let described;
  try {
    described = await engine.rows(`DESCRIBE SELECT * FROM ${reader(src)}`);
  } catch (e) {
    throw translateReadError(e, src);
  }
  const columns = described.map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
  if (src.format === "jsonl") await checkJsonTypes(engine, src, columns);
  const replaced = columns.filter((c) => FLOAT_TYPE.test(c.type)).map((c) => `CASE WHEN isnan(${ident(c.name)}) THEN NULL ELSE ${ident(c.name)} END AS ${ident(c.name)}`);
  const replace = replaced.length ? ` REPLACE (${replaced.join(", ")})` : "";
  const rawTable = src.format === "parquet" ? `${table}_as_written` : table;
  try {
    if (src.format === "parquet") {
      // Parquet is columnar already: each statistic family reads the columns it needs straight from the file,
      // which cost less than copying all of them into a table first (4.1 of 17.4 s at 10 M rows × 20 columns).
      // The view names each row's position in the file `rowid`, as a table's own row ids are named.
      const inPlace = (view: string, replacing: string) =>
        `CREATE VIEW ${ident(view)} AS SELECT * EXCLUDE (file_row_number)${replacing}, file_row_number AS rowid FROM read_parquet(${literal(src.path)}, file_row_number=true)`;
      await engine.run(inPlace(table, replace));
      await engine.run(inPlace(rawTable, ""));
    } else {
      await engine.run(`CREATE TABLE ${ident(table)} AS SELECT *${replace} FROM ${reader(src)}`);
    }
  } catch (e) {
    throw translateReadError(e, src);
  }
  const [count] = await engine.rows(`SELECT count(*) AS n FROM ${ident(table)}`);
  return { table, rawTable, source: src, columns, rows: Number(count?.n ?? 0) };
}

async function checkReadable(path: string): Promise<void> {
  try {
    await access(path, constants.R_OK);
    const s = await stat(path);
    if (!s.isFile()) throw new Error("not a regular file");
    if (s.size === 0) throw new Error("the file is empty");
  } catch (e) {
    throw new DatasetError("UNREADABLE_FILE", `${path}: cannot read the file (${(e as Error).message})`, { file: path }, { cause: e });
  }
}

/** Header present, and every line as wide as it: DuckDB's sniffer fails on ragged files, so find the line ourselves. */
async function checkCsvShape(engine: Engine, src: DataSource): Promise<void> {
  const delim = DELIMITER[src.format as "csv" | "tsv"];
  let sniffed;
  try {
    sniffed = await engine.rows(`SELECT HasHeader AS header FROM sniff_csv(${literal(src.path)}, delim=${literal(delim)})`);
  } catch {
    throw await raggedLine(engine, src, delim);
  }
  if (sniffed[0]?.header !== true) {
    // A ragged short file can also make the sniffer doubt the header: the line that breaks the shape comes first.
    const ragged = await raggedLine(engine, src, delim);
    if (ragged.code === "RAGGED_ROWS") throw ragged;
    throw new DatasetError(
      "NO_HEADER",
      `${src.path}: line 1 looks like data, not a header; add a header row naming the columns`,
      { file: src.path, line: 1 },
    );
  }
}

/** Reads the file as text columns named by its first line, strictly, so DuckDB names the first ragged line. */
async function raggedLine(engine: Engine, src: DataSource, delim: string): Promise<DatasetError> {
  const header = await firstLine(src);
  const names = header.split(delim).map((n, i) => `${literal(`c${i}`)}: 'VARCHAR'`);
  try {
    await engine.rows(
      `SELECT count(*) FROM read_csv(${literal(src.path)}, delim=${literal(delim)}, header=true, auto_detect=false, quote='"', escape='"', strict_mode=true, columns={${names.join(", ")}})`,
    );
  } catch (e) {
    return translateReadError(e, src);
  }
  return new DatasetError("UNREADABLE_FILE", `${src.path}: not a ${src.format.toUpperCase()} file DuckDB can read (no consistent dialect)`, { file: src.path });
}

async function firstLine(src: DataSource): Promise<string> {
  const raw = createReadStream(src.path);
  const lines = createInterface({ input: src.gzip ? raw.pipe(createGunzip()) : raw, crlfDelay: Infinity });
  try {
    for await (const line of lines) return line;
    return "";
  } finally {
    lines.close();
    raw.destroy();
  }
}

/**
 * JSON Lines values of more than one type land in a JSON-typed column: name the first line that differs. A column
 * of nulls only is JSON-typed too, and is no mixture: it is summarized as a column with every value missing.
 */
async function checkJsonTypes(engine: Engine, src: DataSource, columns: LoadedTable["columns"]): Promise<void> {
  for (const json of columns.filter((c) => c.type === "JSON")) {
    const col = ident(json.name);
    const rows = await engine.rows(
      `WITH t AS (SELECT row_number() OVER () AS line, json_type(${col}) AS kind FROM read_json(${literal(src.path)}, format='newline_delimited') WHERE ${col} IS NOT NULL AND json_type(${col}) <> 'NULL')
       SELECT line, kind, first_value(kind) OVER (ORDER BY line) AS first FROM t QUALIFY kind <> first ORDER BY line LIMIT 1`,
    );
    const where = rows[0];
    if (!where) continue;
    const line = typeof where.line === "number" ? where.line : undefined;
    throw new DatasetError(
      "MIXED_TYPES",
      `${src.path}: column "${json.name}" mixes value types${line ? ` (line ${line} holds ${jsonKind(where.kind)}, earlier lines ${jsonKind(where.first)})` : ""}; write one type per column`,
      { file: src.path, column: json.name, ...(line ? { line } : {}) },
    );
  }
}

/** json_type() names in words a person reads. */
function jsonKind(kind: unknown): string {
  const k = String(kind);
  if (/INT|DOUBLE/.test(k)) return "a number";
  if (k === "VARCHAR") return "text";
  return k.toLowerCase();
}

/**
 * A Parquet file read in place fails where a statistic first reads a broken page, after loading: the error that
 * names such a file, as its load would have, or null (DuckDB names the file in its message).
 */
export function inPlaceReadError(e: unknown, sources: Array<DataSource | null>): DatasetError | null {
  if (e instanceof DatasetError) return null;
  const message = e instanceof Error ? e.message : String(e);
  const src = sources.find((s) => s?.format === "parquet" && message.includes(s.path));
  return src ? translateReadError(e, src) : null;
}

/** DuckDB's read errors, turned into our codes with file, column and line taken from its message. */
export function translateReadError(e: unknown, src: DataSource): DatasetError {
  const message = e instanceof Error ? e.message : String(e);
  const line = /Line: (\d+)/.exec(message)?.[1];
  const column = /converting column "((?:[^"]|"")*)"/.exec(message)?.[1];
  const where = { file: src.path, ...(line ? { line: Number(line) } : {}), ...(column ? { column } : {}) };
  const at = `${src.path}${line ? `, line ${line}` : ""}`;
  if (column) {
    const value = /Could not convert string "([^"]*)"/.exec(message)?.[1];
    return new DatasetError(
      "MIXED_TYPES",
      `${at}: column "${column}" mixes value types${value !== undefined ? ` ("${value}" among numbers)` : ""}; clean the column or write missing values as empty fields`,
      where,
      { cause: e },
    );
  }
  if (/Expected Number of Columns|too many columns|Found: \d+/i.test(message)) {
    return new DatasetError("RAGGED_ROWS", `${at}: the line has a different number of fields than the header; fix or remove it`, where, { cause: e });
  }
  const first = message.split("\n")[0] ?? message;
  return new DatasetError("UNREADABLE_FILE", `${at}: cannot read ${basename(src.path)} as ${src.format.toUpperCase()}${src.gzip ? " (gzip)" : ""}: ${first}`, where, { cause: e });
}
