import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Engine, openEngine } from "../../../client/dataset/engine.js";
import { rowMatches } from "../../../client/dataset/rows.js";
import type { LoadedTable } from "../../../client/dataset/source.js";

let engine: Engine;
const table = async (name: string, columns: string, rows: string[]): Promise<LoadedTable> => {
  await engine.run(`CREATE TABLE ${name} (${columns})`);
  await engine.run(`INSERT INTO ${name} VALUES ${rows.join(", ")}`);
  const described = await engine.rows(`DESCRIBE ${name}`);
  return {
    table: name,
    rawTable: name,
    source: { path: `${name}.csv`, format: "csv", gzip: false },
    columns: described.map((r) => ({ name: String(r.column_name), type: String(r.column_type) })),
    rows: rows.length,
  };
};
let train: LoadedTable;
beforeAll(async () => {
  engine = await openEngine();
  // Three copies of one row (missing values equal to each other), two of another: 2 + 1 extra copies.
  train = await table("tr", "a INTEGER, b VARCHAR, c DOUBLE", ["(1, 'x', NULL)", "(1, 'x', NULL)", "(1, 'x', NULL)", "(2, 'y', 0.5)", "(2, 'y', 0.5)", "(3, NULL, 1.0)", "(3, NULL, 2.0)"]);
});
afterAll(async () => engine.close());

describe("duplicate and overlapping rows, by row hash then exact comparison", () => {
  it("counts extra copies in train and each test row found in train, missing equal to missing", async () => {
    const test = await table("te", "a INTEGER, b VARCHAR, c DOUBLE", ["(1, 'x', NULL)", "(1, 'x', NULL)", "(3, NULL, 1.0)", "(4, 'z', 2.0)"]);
    expect(await rowMatches(engine, train, test)).toEqual({ duplicates: { count: 3, fraction: 3 / 7 }, overlap: { count: 3, fraction: 0.75 } });
  });

  it("compares on the shared columns only, as text where the files' types differ", async () => {
    // Shared: a (INTEGER in train, VARCHAR here, so compared as text) and b; c and d are one file's own.
    const test = await table("te2", "a VARCHAR, b VARCHAR, d INTEGER", ["('1', 'x', 7)", "('2', 'q', 8)", "('3', NULL, 9)", "('01', 'x', 1)"]);
    expect(await rowMatches(engine, train, test)).toEqual({ duplicates: { count: 3, fraction: 3 / 7 }, overlap: { count: 2, fraction: 0.5 } });
  });

  it("without a test file or without shared columns, counts duplicates only", async () => {
    expect(await rowMatches(engine, train, null)).toEqual({ duplicates: { count: 3, fraction: 3 / 7 }, overlap: null });
    const other = await table("te3", "z INTEGER", ["(1)"]);
    expect(await rowMatches(engine, train, other)).toEqual({ duplicates: { count: 3, fraction: 3 / 7 }, overlap: null });
  });
});

describe("duplicate and overlapping rows when unequal rows share a hash", () => {
  /** A hash with four values: nearly every pair of unequal rows collides, so only the exact comparison can tell them apart. */
  const weak = (values: string[]) => `hash(${values.join(", ")}) % 4`;
  /** The counts from the rows themselves in JS, as pandas defines them: extra copies in train, test rows whose shared values equal a train row's. */
  const reference = async (tr: LoadedTable, te: LoadedTable, shared: string[]): Promise<[number, number]> => {
    const keyOf = (r: Record<string, unknown>, names: string[]) => JSON.stringify(names.map((n) => (r[n] === null ? null : String(r[n]))));
    const trainRows = await engine.rows(`SELECT * FROM ${tr.table}`);
    const whole = tr.columns.map((c) => c.name);
    const trainKeys = new Set(trainRows.map((r) => keyOf(r, shared)));
    const testRows = await engine.rows(`SELECT * FROM ${te.table}`);
    return [trainRows.length - new Set(trainRows.map((r) => keyOf(r, whole))).size, testRows.filter((r) => trainKeys.has(keyOf(r, shared))).length];
  };
  // Small value domains and missing values give many duplicates; 2000 distinct-ish rows over 4 hash values collide throughout.
  // Test rows take c and b from wider domains than train's, so only some of them are in train.
  const rowsOf = (n: number, seed: number, wider = 0) =>
    Array.from({ length: n }, (_, i) => {
      const k = (i * 7919 + seed) % 997;
      return `(${k % 5 === 0 ? "NULL" : k % 13}, ${k % 3 === 0 ? "NULL" : `'v${k % (7 + wider)}'`}, ${k % 11 === 0 ? "NULL" : (k % (17 + wider)) / 4})`;
    });

  it("counts exactly with one grouping for both (same columns and types in both files)", async () => {
    const tr = await table("ctr", "a INTEGER, b VARCHAR, c DOUBLE", rowsOf(2000, 1));
    const te = await table("cte", "a INTEGER, b VARCHAR, c DOUBLE", rowsOf(300, 5, 3));
    const [distinctRows] = await engine.rows("SELECT count(*) AS n FROM (SELECT DISTINCT * FROM ctr)");
    const [weakHashes] = await engine.rows(`SELECT count(DISTINCT ${weak(["a", "b", "c"])}) AS n FROM ctr`);
    expect(Number(weakHashes?.n)).toBeLessThan(Number(distinctRows?.n));
    const [duplicates, overlap] = await reference(tr, te, ["a", "b", "c"]);
    expect(duplicates).toBeGreaterThan(0);
    expect(overlap).toBeGreaterThan(0);
    expect(overlap).toBeLessThan(300);
    const want = { duplicates: { count: duplicates, fraction: duplicates / 2000 }, overlap: { count: overlap, fraction: overlap / 300 } };
    expect(await rowMatches(engine, tr, te, weak)).toEqual(want);
    expect(await rowMatches(engine, tr, te)).toEqual(want);
  });

  it("counts exactly with separate groupings (a column compared as text, a column one file lacks)", async () => {
    const tr = await table("ctr2", "a INTEGER, b VARCHAR, c DOUBLE", rowsOf(2000, 2));
    const te = await table("cte2", "a VARCHAR, b VARCHAR", rowsOf(300, 9, 3).map((r) => r.replace(/^\((\d+)/, "('$1'").replace(/, [^,]+\)$/, ")")));
    const [duplicates, overlap] = await reference(tr, te, ["a", "b"]);
    expect(overlap).toBeGreaterThan(0);
    expect(overlap).toBeLessThan(300);
    const want = { duplicates: { count: duplicates, fraction: duplicates / 2000 }, overlap: { count: overlap, fraction: overlap / 300 } };
    expect(await rowMatches(engine, tr, te, weak)).toEqual(want);
    expect(await rowMatches(engine, tr, te)).toEqual(want);
  });
});

describe("rows read as written, NaN and missing alike", () => {
  it("counts a row with NaN and one with a missing value in the same place as copies, as pandas reads both as NaN", async () => {
    // As a Parquet file is seen: the raw table holds NaN and NULL, the view every NaN as missing.
    await engine.run("CREATE TABLE nr AS SELECT * FROM (VALUES (1, 'nan'::DOUBLE), (1, NULL), (1, -('nan'::DOUBLE)), (2, 0.5), (2, 0.25)) t(a, c)");
    await engine.run("CREATE VIEW nv AS SELECT a, CASE WHEN isnan(c) THEN NULL ELSE c END AS c FROM nr");
    await engine.run("CREATE TABLE tnr AS SELECT * FROM (VALUES (1, NULL::DOUBLE), (2, 'nan'::DOUBLE), (2, 0.25)) t(a, c)");
    const loaded = (raw: string, view: string): LoadedTable => ({
      table: view,
      rawTable: raw,
      source: { path: `${raw}.parquet`, format: "parquet", gzip: false },
      columns: [{ name: "a", type: "INTEGER" }, { name: "c", type: "DOUBLE" }],
      rows: 0,
    });
    const tr = { ...loaded("nr", "nv"), rows: 5 };
    await engine.run("CREATE VIEW tnv AS SELECT a, CASE WHEN isnan(c) THEN NULL ELSE c END AS c FROM tnr");
    const te = { ...loaded("tnr", "tnv"), rows: 3 };
    const want = { duplicates: { count: 2, fraction: 2 / 5 }, overlap: { count: 2, fraction: 2 / 3 } };
    expect(await rowMatches(engine, tr, te)).toEqual(want);
    expect(await rowMatches(engine, tr, te, (values) => `hash(${values.join(", ")}) % 2`)).toEqual(want);
  });
});
