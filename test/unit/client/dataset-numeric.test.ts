import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { psi } from "../../../client/dataset/drift.js";
import { type Engine, openEngine } from "../../../client/dataset/engine.js";
import { type NumericProfile, numericProfile, QUANTILE_ESTIMATE_RANK_ERROR, QUANTILE_EXACT_BOUND } from "../../../client/dataset/numeric.js";

let engine: Engine;
/** A profile of a column that has values. */
async function profile(...args: Parameters<typeof numericProfile>): Promise<NumericProfile> {
  const p = await numericProfile(...args);
  if (!p) throw new Error("no values");
  return p;
}
const X = { name: "x", type: "INTEGER" };
/** A table of ours with its row count: NaN-free as it is, so its raw name is itself (as for a loaded text file). */
const split = (table: string, rows: number) => ({ table, rawTable: table, rows });
const V = { name: "v", type: "BIGINT" };
beforeAll(async () => {
  engine = await openEngine();
  // Ties across the splits: at 0, F_train = 3/4 and F_test = 1/4; at 1 both are 1. KS = 0.5 (scipy's ks_2samp too).
  await engine.run("CREATE TABLE tr AS SELECT * FROM (VALUES (0), (0), (0), (1)) t(x)");
  await engine.run("CREATE TABLE te AS SELECT * FROM (VALUES (0), (1), (1), (1)) t(x)");
});
afterAll(async () => engine.close());

describe.each([true, false])("numeric profile (grouped: %s)", (grouped) => {
  it("reads KS only where a value ends, and quartiles by linear interpolation, on hand-computable data", async () => {
    const p = await profile(engine, X, split("tr", 4), split("te", 4), psi, grouped);
    // Running sums inside the tie at 0 would reach |3/4 − 0| = 0.75 if every row were read.
    expect(p.drift?.ks).toBe(0.5);
    // h = 3q: p25 = x[0.75] = 0, p50 = x[1.5] = 0, p75 = x[2.25] = 0 + 0.25 · (1 − 0).
    expect(p.quartiles).toEqual([0, 0, 0.25]);
    expect(p.distinct).toEqual({ unique: 2, top: "0", topFrequency: 3 });
  });
});

describe("a numeric column read as written", () => {
  it("leaves NaN out as a missing value, in either route", async () => {
    // As a Parquet file is seen: the raw table holds NaN, the view shows it as missing.
    await engine.run("CREATE TABLE nan_raw AS SELECT * FROM (VALUES (0.0), ('nan'::DOUBLE), (NULL), (1.0), (-('nan'::DOUBLE)), (1.0)) t(x)");
    await engine.run("CREATE VIEW nan_view AS SELECT CASE WHEN isnan(x) THEN NULL ELSE x END AS x FROM nan_raw");
    const D = { name: "x", type: "DOUBLE" };
    for (const grouped of [true, false]) {
      const p = await profile(engine, D, { table: "nan_view", rawTable: "nan_raw", rows: 6 }, split("te", 4), psi, grouped);
      expect(p.count).toBe(3);
      expect(p.distinct).toEqual({ unique: 2, top: "1.0", topFrequency: 2 });
      expect(p.moments).toMatchObject({ mean: 2 / 3, min: 0, max: 1, inf: 0 });
      expect(p.quartiles).toEqual([0.5, 1, 1]);
    }
  });
});

describe("a numeric column without values", () => {
  it("has no profile, in either route", async () => {
    await engine.run("CREATE OR REPLACE TABLE none AS SELECT NULL::INTEGER AS x FROM range(3)");
    for (const grouped of [true, false]) expect(await numericProfile(engine, X, split("none", 3), split("te", 4), psi, grouped)).toBeNull();
  });
});

describe("quartiles of a near-unique column above the exact bound", () => {
  it("are estimated from a sample within the documented rank error when nothing needs the column sorted, and exact with a test file", async () => {
    const n = QUANTILE_EXACT_BOUND + 500_000;
    // A permutation of 0 … n−1 (n is not a multiple of 7919's factors), so the exact q-quantile is q·(n − 1).
    await engine.run(`CREATE OR REPLACE TABLE big AS SELECT (x * 7919) % ${n} AS v FROM range(${n}) t(x)`);
    await engine.run("CREATE OR REPLACE TABLE small AS SELECT * FROM (VALUES (0), (1)) t(v)");
    const alone = await profile(engine, V, split("big", n), null, psi, false);
    expect(alone.quartilesEstimated).toBe(true);
    [0.25, 0.5, 0.75].forEach((q, i) => expect(Math.abs(alone.quartiles[i]! / (n - 1) - q)).toBeLessThanOrEqual(QUANTILE_ESTIMATE_RANK_ERROR));
    // The sample is the same on every run (DuckDB's parallel std may differ in its last bits, the sample may not).
    expect((await profile(engine, V, split("big", n), null, psi, false)).quartiles).toEqual(alone.quartiles);
    const paired = await profile(engine, V, split("big", n), split("small", 2), psi, false);
    expect(paired.quartilesEstimated).toBe(false);
    expect(paired.quartiles).toEqual([0.25, 0.5, 0.75].map((q) => q * (n - 1)));
    // Read in order, the near-unique column also gets its exact distinct count, top value (ties to the smallest) and moments.
    expect(paired.distinct).toEqual({ unique: n, top: "0", topFrequency: 1 });
    expect(paired.moments).toEqual({ mean: (n - 1) / 2, std: Math.sqrt((n * (n + 1)) / 12), min: 0, max: n - 1, inf: 0 });
  });
});
