import { describe, expect, it } from "vitest";
import { formatTick, linearScale, tickFormatter, valueScale } from "../../../report/scale.js";

describe("scales", () => {
  it("maps the domain onto the range with ticks at 1, 2 or 5 times a power of ten", () => {
    const x = linearScale([0, 1950], [60, 944], 8);
    expect(x(0)).toBe(60);
    expect(x(1950)).toBe(944);
    expect(x.ticks).toEqual([0, 200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800]);
  });

  it("switches to a log scale when positive values span more than two decades", () => {
    const diverging = valueScale([0.5, 0.4, 3e4], [200, 20]);
    expect(diverging.log).toBe(true);
    expect(diverging.ticks).toEqual([1, 10, 100, 1000, 10000]);
    expect(valueScale([0.9, 0.4, 0.2], [200, 20]).log).toBe(false);
    expect(valueScale([-1, 1000], [200, 20]).log).toBe(false);
  });

  it("writes short tick labels, in exponent form for a whole axis of tiny values", () => {
    expect([0, 0.25, 1500, 2_500_000].map(formatTick)).toEqual(["0", "0.25", "1.5k", "2.5M"]);
    const lr = tickFormatter([0.0004, 0.0006, 0.001]);
    expect([0.0004, 0.001, 0].map(lr)).toEqual(["4e-4", "1e-3", "0"]);
  });
});
