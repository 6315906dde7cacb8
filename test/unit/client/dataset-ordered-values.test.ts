import { describe, expect, it } from "vitest";
import { OrderedValues } from "../../../client/dataset/ordered-values.js";

/** Feeds sorted (value, split) rows one by one, as a sort of raw values arrives. */
function fromRows(rows: Array<[number, "train" | "test"]>, capacity?: number): OrderedValues {
  const v = new OrderedValues(capacity);
  for (const [x, side] of rows) v.add(x, side === "train" ? 1 : 0, side === "test" ? 1 : 0);
  return v.finish();
}

describe("values in order with running counts", () => {
  const train = [1, 2, 2, 2, 3, 5, 5, 8];
  const test = [0, 2, 5, 9];
  const rows = [...train.map((x) => [x, "train"] as [number, "train"]), ...test.map((x) => [x, "test"] as [number, "test"])].sort((a, b) => a[0] - b[0]);

  it("merges equal neighbours, so raw and grouped streams give the same answers", () => {
    const raw = fromRows(rows);
    const grouped = new OrderedValues();
    for (const [x, a, b] of [[0, 0, 1], [1, 1, 0], [2, 3, 1], [3, 1, 0], [5, 2, 1], [8, 1, 0], [9, 0, 1]] as const) grouped.add(x, a, b);
    grouped.finish();
    // Room made at once for fewer, as many or more values than arrive: the same answers.
    for (const v of [raw, grouped, fromRows(rows, 0), fromRows(rows, 3), fromRows(rows, rows.length)]) {
      expect([v.unique, v.top, v.topFrequency, v.trainCount]).toEqual([5, 2, 3, 8]);
      expect(train.map((_, k) => v.orderStatistic(k))).toEqual(train);
      expect([v.countsUpTo(-1), v.countsUpTo(2), v.countsUpTo(4.5), v.countsUpTo(100)]).toEqual([{ a: 0, b: 0 }, { a: 4, b: 2 }, { a: 5, b: 2 }, { a: 8, b: 4 }]);
    }
  });

  it("reads KS where each value ends, as scipy's ks_2samp", () => {
    // F_train − F_test at the value ends: 0: −1/4, 1: 1/8−1/4, 2: 1/2−1/2, 3: 5/8−1/2, 5: 7/8−3/4, 8: 1−3/4, 9: 0.
    expect(fromRows(rows).ks(8, 4)).toBe(0.25);
  });

  it("ties for the top value go to the smallest value; test-only values are not train's distinct values", () => {
    const v = fromRows([[1, "test"], [1, "test"], [3, "train"], [3, "train"], [4, "train"], [4, "train"]]);
    expect([v.unique, v.top, v.topFrequency]).toEqual([2, 3, 2]);
  });

  it("gives mean, sample standard deviation and extremes of the train rows only", () => {
    const m = fromRows(rows).moments();
    const mean = train.reduce((s, x) => s + x, 0) / train.length;
    const std = Math.sqrt(train.reduce((s, x) => s + (x - mean) ** 2, 0) / (train.length - 1));
    expect(m.mean).toBe(mean);
    expect(m.std).toBeCloseTo(std, 14);
    expect([m.min, m.max, m.inf]).toEqual([1, 8, 0]);
  });

  it("says what pandas says of infinite values and of a single value", () => {
    expect(fromRows([[1, "train"], [Infinity, "train"]]).moments()).toEqual({ mean: Infinity, std: null, min: 1, max: Infinity, inf: 1 });
    expect(fromRows([[-Infinity, "train"], [Infinity, "train"]]).moments().mean).toBeNull();
    expect(fromRows([[4, "train"]]).moments()).toEqual({ mean: 4, std: null, min: 4, max: 4, inf: 0 });
  });
});
