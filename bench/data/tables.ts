import { statSync } from "node:fs";
import { openEngine } from "../../client/dataset/engine.js";
import { literal } from "../../client/dataset/sql.js";

/** Shares of train rows that are extra copies, and of test rows copied from train (so both figures are non-zero). */
const DUPLICATE_SHARE = 0.01;
const OVERLAP_SHARE = 0.01;
/** The benchmark table's label column, given to the client as --target. */
export const BENCH_TARGET = "label";

/**
 * The 21 columns of the benchmark table as SQL over a row key `j`: 12 floats (sums of two hashed uniforms, 4
 * decimals), 4 integers (one near-unique, three with 10–10 000 values), 4 strings (10 to 1 000 categories) and a
 * binary `label` (30 % ones) that the client's label signal and conflicting-label passes read as the target.
 * Values come from hash(j), so the table is the same on every run and across threads.
 */
function columnsOf(key: string): string {
  const u = (k: number) => `(hash(${key} * 20 + ${k}) % 1000003) / 1000003.0`;
  const floats = Array.from({ length: 12 }, (_, k) => `round(${u(k)} + ${u(k + 100)} * ${k + 1}, 4) AS f${k}`);
  const ints = [`(hash(${key}) % 1000000000)::BIGINT AS i0`, ...[10, 1000, 10000].map((m, k) => `(hash(${key} * 7 + ${k}) % ${m})::BIGINT AS i${k + 1}`)];
  const strings = [10, 50, 200, 1000].map((m, k) => `'cat_' || (hash(${key} * 13 + ${k}) % ${m}) AS s${k}`);
  const label = `(hash(${key} * 17) % 10 < 3)::INTEGER AS label`;
  return [...floats, ...ints, ...strings, label].join(", ");
}

export interface GeneratedTables {
  trainRows: number;
  testRows: number;
  files: Record<"csv" | "parquet", { train: string; test: string }>;
  bytes: Record<"csv" | "parquet", number>;
}

/**
 * Writes a train table of `rows` rows (1 % exact duplicates) and a test table of a tenth of that (1 % copied
 * from train, the rest shifted keys) as CSV and as Parquet (DuckDB's default Snappy compression) into `dir`.
 */
export async function writeBenchTables(dir: string, rows: number): Promise<GeneratedTables> {
  const engine = await openEngine({ workDir: dir });
  const testRows = Math.round(rows / 10);
  const unique = Math.round(rows * (1 - DUPLICATE_SHARE));
  const copied = Math.round(testRows * OVERLAP_SHARE);
  const files = {
    csv: { train: `${dir}/train.csv`, test: `${dir}/test.csv` },
    parquet: { train: `${dir}/train.parquet`, test: `${dir}/test.parquet` },
  };
  try {
    await engine.run(`CREATE TABLE train AS SELECT ${columnsOf("j")} FROM (SELECT CASE WHEN i < ${unique} THEN i ELSE i - ${unique} END AS j FROM range(${rows}) t(i))`);
    await engine.run(`CREATE TABLE test AS SELECT ${columnsOf("j")} FROM (SELECT CASE WHEN i < ${copied} THEN i * 37 % ${unique} ELSE i + ${rows * 10} END AS j FROM range(${testRows}) t(i))`);
    for (const split of ["train", "test"] as const) {
      await engine.run(`COPY ${split} TO ${literal(files.csv[split])} (FORMAT csv, HEADER true)`);
      await engine.run(`COPY ${split} TO ${literal(files.parquet[split])} (FORMAT parquet)`);
    }
  } finally {
    await engine.close();
  }
  const size = (f: { train: string; test: string }) => statSync(f.train).size + statSync(f.test).size;
  return { trainRows: rows, testRows, files, bytes: { csv: size(files.csv), parquet: size(files.parquet) } };
}
