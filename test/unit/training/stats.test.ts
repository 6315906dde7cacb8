import { describe, expect, it } from "vitest";
import { findExcursions } from "../../../nodes/training/excursions.js";
import { fitLine, levelNoise, median, noiseSigma, quantile } from "../../../nodes/training/stats.js";
import { Prng } from "../../support/prng.js";

const rng = new Prng(2024);
const white = (n: number, sd: number, trend = 0) => Float64Array.from({ length: n }, (_, i) => trend * i + sd * rng.normal());

describe("robust statistics", () => {
  it("medians by quickselect match sorting, for odd and even lengths and ties", () => {
    for (let t = 0; t < 300; t++) {
      const a = Array.from({ length: 1 + Math.floor(rng.next() * 40) }, () => Math.round(rng.normal() * 3) + 0);
      const s = [...a].sort((x, y) => x - y);
      const m = s.length % 2 ? s[s.length >> 1]! : (s[(s.length >> 1) - 1]! + s[s.length >> 1]!) / 2;
      expect(median(a)).toBe(m);
    }
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
  });

  it("σ̂ = 1.4826·MAD(Δx)/√2 recovers white noise through a linear trend, and bounds its work on long series", () => {
    expect(noiseSigma(white(5000, 0.2, 0.01))).toBeCloseTo(0.2, 1);
    expect(noiseSigma(white(2_000_000, 0.5))).toBeCloseTo(0.5, 1);
  });

  it("levelNoise does not fall below the point-to-point noise and sees correlated noise that differences miss", () => {
    let prev = 0;
    const correlated = Float64Array.from({ length: 400 }, () => (prev = 0.8 * prev + 0.6 * rng.normal()));
    const point = noiseSigma(correlated);
    expect(point).toBeLessThan(0.8);
    expect(levelNoise(correlated, point)).toBeGreaterThan(point);
  });

  it("fits a line with a t-statistic", () => {
    const x = Float64Array.from({ length: 50 }, (_, i) => i);
    expect(fitLine(x, white(50, 0.1, -0.05)).t).toBeLessThan(-10);
    expect(Math.abs(fitLine(x, white(50, 0.1)).t)).toBeLessThan(4);
  });
});

describe("excursions against a rolling baseline", () => {
  it("finds a shifted spike and one that comes back, and nothing in plain noise", () => {
    const y = white(400, 0.02);
    y[150] = y[150]! + 1;
    for (let i = 300; i < 400; i++) y[i] = y[i]! + 0.5;
    const found = findExcursions(y, { cutoff: (level, sigma) => level + 6 * sigma, recoverWithin: 20 });
    expect(found.map((e) => [e.peak, e.recovered])).toEqual([
      [150, true],
      [found[1]!.peak, false],
    ]);
    expect(found[1]!.start).toBe(300);
    expect(findExcursions(white(400, 0.02), { cutoff: (level, sigma) => level + 6 * sigma, recoverWithin: 20 })).toEqual([]);
  });
});
