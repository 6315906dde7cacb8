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
