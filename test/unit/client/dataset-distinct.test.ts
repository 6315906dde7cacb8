import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { estimateDistinct, summarizeDistinct, UNIQUE_ESTIMATE_RELATIVE_ERROR, UNIQUE_EXACT_BOUND } from "../../../client/dataset/distinct.js";
import { type Engine, openEngine } from "../../../client/dataset/engine.js";

let engine: Engine;
beforeAll(async () => {
  engine = await openEngine();
  // n distinct ids, each repeated twice, plus a column whose value 7 is the most frequent.
  await engine.run(`CREATE TABLE big AS SELECT x % 400000 AS id, CASE WHEN x % 3 = 0 THEN 7 ELSE x END AS mostly_seven FROM range(800000) t(x)`);
});
afterAll(async () => engine.close());

describe("distinct counts", () => {
  it.each([50_000, 150_000, 1_000_000, 5_000_000])("estimates %i distinct values within the documented bound", async (n) => {
    await engine.run(`CREATE OR REPLACE TABLE r AS SELECT (x * 7919)::VARCHAR AS v FROM range(${n}) t(x)`);
    const estimate = await estimateDistinct(engine, "r", "v");
    expect(Math.abs(estimate - n) / n).toBeLessThanOrEqual(UNIQUE_ESTIMATE_RELATIVE_ERROR);
  });

  it("is exact up to the bound and an estimate, flagged, above it", async () => {
    await engine.run(`CREATE OR REPLACE TABLE small AS SELECT x % 1000 AS v FROM range(${UNIQUE_EXACT_BOUND * 2}) t(x)`);
    expect(await summarizeDistinct(engine, "small", "v", UNIQUE_EXACT_BOUND * 2, 0.01)).toEqual({ unique: 1000, estimated: false, top: "0", topFrequency: 200 });
    const ids = await summarizeDistinct(engine, "big", "id", 800_000, 1);
    expect(ids.estimated).toBe(true);
    expect(Math.abs(ids.unique - 400_000) / 400_000).toBeLessThanOrEqual(UNIQUE_ESTIMATE_RELATIVE_ERROR);
    expect(ids.topFrequency).toBe(2);
  });

  it("gives the exact frequency of the top value of a high-cardinality column", async () => {
    const s = await summarizeDistinct(engine, "big", "mostly_seven", 800_000, 0.67);
    // Multiples of 3 below 800 000 (0, 3, …, 799 998) plus x = 7 itself.
    expect(s).toMatchObject({ estimated: true, top: "7", topFrequency: Math.ceil(800_000 / 3) + 1 });
  });
});
