import { describe, expect, it } from "vitest";
import { normalQuantile, ranks, spearman, tQuantile } from "../../../nodes/experiment/stats.js";

describe("experiment statistics", () => {
  it("gives the normal and t quantiles of the tables", () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.01)).toBeCloseTo(-2.326348, 5);
    expect(tQuantile(0.99, 1)).toBeCloseTo(31.821, 2);
    expect(tQuantile(0.99, 2)).toBeCloseTo(6.965, 3);
    expect(tQuantile(0.99, 4)).toBeCloseTo(3.747, 1);
    expect(tQuantile(0.975, 10)).toBeCloseTo(2.228, 2);
    expect(tQuantile(0.99, 30)).toBeCloseTo(2.457, 2);
    expect(tQuantile(0.99, Number.POSITIVE_INFINITY)).toBeCloseTo(2.326, 3);
  });

  it("ranks ties at their mean rank and correlates monotone data perfectly", () => {
    expect(ranks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1]);
    const s = spearman([1, 2, 3, 4, 5, 6], [1, 4, 9, 16, 25, 36]);
    expect(s.rho).toBeCloseTo(1, 10);
    const r = spearman([1, 2, 3, 4, 5, 6, 7, 8], [3, 1, 4, 1, 5, 9, 2, 6]);
    expect(r.low).toBeLessThan(r.rho);
    expect(r.high).toBeGreaterThan(r.rho);
  });
});
