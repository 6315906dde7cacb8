import { describe, expect, it } from "vitest";
import { ratioOf } from "../../../bench/lib/result.js";
import { logLogSlope, median, quantile } from "../../../bench/lib/stats.js";

describe("bench statistics", () => {
  it("interpolates quantiles between closest ranks", () => {
    const xs = [5, 1, 4, 2, 3];
    expect(median(xs)).toBe(3);
    expect(quantile(xs, 0)).toBe(1);
    expect(quantile(xs, 1)).toBe(5);
    expect(quantile([0, 10], 0.99)).toBeCloseTo(9.9);
    expect(() => quantile([], 0.5)).toThrow(RangeError);
  });

  it("reads the growth exponent off a log-log fit", () => {
    const n = [1e4, 1e5, 1e6];
    expect(logLogSlope(n, n.map((x) => 3 * x))).toBeCloseTo(1);
    expect(logLogSlope(n, n.map((x) => x * x))).toBeCloseTo(2);
    expect(logLogSlope(n, n.map((x) => 7 * Math.sqrt(x)))).toBeCloseTo(0.5);
    expect(() => logLogSlope([1], [1])).toThrow(RangeError);
  });

  it("gives no ratio without a baseline", () => {
    expect(ratioOf(3, 2)).toBe(1.5);
    expect(ratioOf(3, null)).toBeNull();
    expect(ratioOf(null, 2)).toBeNull();
    expect(ratioOf(3, 0)).toBeNull();
  });
});
