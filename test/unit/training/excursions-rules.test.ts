import { describe, expect, it } from "vitest";
import { baselineBlock, type Excursion, type ExcursionRule, findExcursions } from "../../../nodes/training/excursions.js";
import { medianInPlace, noiseSigma } from "../../../nodes/training/stats.js";
import { Prng } from "../../support/prng.js";

/** A cutoff that ignores level and noise (non-decreasing in both, trivially): which points it flags is known. */
const above = (value: number, recoverWithin = 10): ExcursionRule => ({ cutoff: () => value, recoverWithin });

const sigmaOfMad = (mad: number) => (1.4826 * mad) / Math.SQRT2;

/** Straightforward findExcursions, written from its documentation: every statistic recomputed, no prefilter, no cache. */
function reference(y: Float64Array, rule: ExcursionRule): Excursion[] {
  const n = y.length;
  const b = baselineBlock(n);
  if (n < 3 * b) return [];
  const med = (values: ArrayLike<number>) => medianInPlace(Float64Array.from(values));
  const blockSigma = (k: number) => {
    const d = Float64Array.from({ length: b - 1 }, (_, i) => y[k * b + i + 1]! - y[k * b + i]!);
    // In place, as the deviations are then taken in the order the selection left (which matters only with NaN).
    const c = medianInPlace(d);
    return sigmaOfMad(med(d.map((v) => Math.abs(v - c))));
  };
  const floor = 0.5 * noiseSigma(y);
  const out: Excursion[] = [];
  for (let k = 1; k * b < n; k++) {
    const level = med(y.subarray((k - 1) * b, k * b));
    const recent: number[] = [];
    for (let j = Math.max(0, k - 3); j < k; j++) recent.push(blockSigma(j));
    const sigma = Math.max(floor, med(recent));
    const cutoff = rule.cutoff(level, sigma);
    for (let i = k * b; i < Math.min(n, (k + 1) * b); i++) {
      if (!(y[i]! > cutoff)) continue;
      const open = out.at(-1);
      if (open && i - open.end <= 2) {
        open.end = i;
        if (y[i]! > y[open.peak]!) open.peak = i;
      } else out.push({ start: i, end: i, peak: i, level, sigma, recovered: null });
    }
  }
  for (const e of out) {
    const limit = e.level + 3 * e.sigma;
    if (e.end + 3 >= n) continue;
    e.recovered = false;
    for (let j = e.end + 1; j <= Math.min(n - 3, e.end + rule.recoverWithin); j++) {
      // The middle of three; never back while one of them is NaN.
      if ([y[j]!, y[j + 1]!, y[j + 2]!].sort((p, q) => p - q)[1]! <= limit && !Number.isNaN(y[j]! + y[j + 1]! + y[j + 2]!)) {
        e.recovered = true;
        break;
      }
    }
  }
  return out;
}

describe("findExcursions against a plain reference", () => {
  const rng = new Prng(20261206);
  const rules: ExcursionRule[] = [
    { cutoff: (level, sigma) => level + 2 * sigma, recoverWithin: 4 },
    { cutoff: (level, sigma) => level + 4 * sigma, recoverWithin: 30 },
  ];

  /** A noisy trend with spikes, blocks of very different noise, and (poisoned) NaN, ±Infinity and huge values. */
  function noisy(n: number, poisoned: boolean): Float64Array {
    const y = new Float64Array(n);
    let scale = 0.1;
    for (let i = 0; i < n; i++) {
      if (i % 7 === 0) scale = rng.pick([0.01, 0.1, 0.5, 2]);
      y[i] = Math.round((3 - (2 * i) / n + scale * rng.normal()) * 256) / 256 + 0;
    }
    for (let s = 0; s < n / 15; s++) y[rng.int(0, n - 1)]! += rng.pick([1, 3, 10]);
    if (poisoned) for (let s = 0; s < n / 40 + 1; s++) y[rng.int(0, n - 1)] = rng.pick([Number.NaN, Number.POSITIVE_INFINITY, 1e308, -1e308]);
    return y;
  }

  it("finds the same excursions, levels, σ and recoveries on random series of many lengths, clean and poisoned", () => {
    for (let t = 0; t < 300; t++) {
      const n = rng.pick([59, 60, 61, 64, 99, 100, 101, 137, 200, 333, 1000, 1234]);
      const y = noisy(n, t % 3 === 0);
      for (const rule of rules) expect(findExcursions(y, rule)).toEqual(reference(y, rule));
    }
  });

  it("gives each prefix and each offset view of one buffer its own blocks (different lengths, so different block sizes)", () => {
    for (let t = 0; t < 20; t++) {
      const whole = noisy(600, t % 2 === 0);
      const views = [whole, whole.subarray(0, 100), whole.subarray(0, 203), whole.subarray(3, 250), whole.subarray(7, 600), whole.subarray(0, 450)];
      for (const v of views) for (const rule of rules) expect(findExcursions(v, rule)).toEqual(reference(Float64Array.from(v), rule));
    }
  });
});

describe("findExcursions on constructed series", () => {
  it("needs three blocks: 14 points (block 5) give nothing, 15 points give the spike", () => {
    expect([baselineBlock(14), baselineBlock(15), baselineBlock(119), baselineBlock(120), baselineBlock(2000)]).toEqual([5, 5, 5, 6, 50]);
    const y = new Float64Array(15);
    y[12] = 10;
    expect(findExcursions(y.slice(0, 14), above(1))).toEqual([]);
    expect(findExcursions(y, above(1))).toMatchObject([{ start: 12, end: 12, peak: 12, level: 0, recovered: null }]);
  });

  it("scans every block after the first, the partial last block included, and never the first block", () => {
    const y = new Float64Array(103); // block 5: blocks 0–19 and a partial one of 3 points
    y[2] = 10; // block 0: no level before it
    y[5] = 10; // first point of block 1
    y[102] = 10; // last point, in the partial block
    const found = findExcursions(y, above(1));
    expect(found.map((e) => [e.start, e.end, e.peak])).toEqual([
      [5, 5, 5],
      [102, 102, 102],
    ]);
    // Block 1's level is block 0's median (0 despite its spike); the partial block's is block 19's.
    expect(found.map((e) => e.level)).toEqual([0, 0]);
  });

  it("flags only points strictly above the cutoff", () => {
    const y = new Float64Array(100);
    y[40] = 5;
    y[60] = 5.000001;
    expect(findExcursions(y, above(5)).map((e) => e.start)).toEqual([60]);
  });

  it("merges flagged points at most 2 apart into one excursion, splits them 3 apart, and moves the peak to the highest", () => {
    const y = new Float64Array(100);
    for (const [i, v] of [[30, 3], [32, 7], [34, 7], [37, 4], [38, 9], [39, 2]] as const) y[i] = v;
    const found = findExcursions(y, above(1, 0));
    // 30–34 (gaps of 2; the later 7 does not take the peak from the first), then 37–39 (3 after 34).
    expect(found.map((e) => [e.start, e.end, e.peak])).toEqual([
      [30, 34, 32],
      [37, 39, 38],
    ]);
  });

  it("merges across a block boundary, with the level and σ of the block it started in", () => {
    const y = new Float64Array(100);
    for (let i = 50; i < 55; i++) y[i] = 1; // block 10 raised: block 11's level is 1
    y[54] = 9;
    y[56] = 9;
    const found = findExcursions(y, above(2));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ start: 54, end: 56, peak: 54, level: 0 });
  });

  it("measures a block's σ as 1.4826 · median|Δ − median Δ| / √2 and uses the middle of the last three blocks' σ", () => {
    // Block 5. Blocks of pattern [0, s, 3s, 6s, 10s] have differences s, 2s, 3s, 4s: median 2.5s, MAD s.
    // Then flat blocks, so that the series' own σ̂ (half of it is the floor) is small.
    const scales = [5, 4, 2, 8, 3, 6, 5, 1, 2, 7, 4, 3, ...Array<number>(11).fill(0)];
    const y = new Float64Array(5 * scales.length);
    scales.forEach((s, k) => [0, 1, 3, 6, 10].forEach((p, i) => (y[5 * k + i] = p * s)));
    const floor = 0.5 * noiseSigma(y);
    const seen: Array<[number, number]> = [];
    findExcursions(y, { cutoff: (level, sigma) => (seen.push([level, sigma]), level + sigma - 1e6), recoverWithin: 5 });
    // Every block is scanned (all points are above the cutoff), and the last of its three calls has the level and σ:
    // the median of block k − 1 and the middle σ.
    const middle = (a: number, b: number, c: number) => [a, b, c].sort((p, q) => p - q)[1]!;
    const expected = scales.slice(1).map((_, j) => {
      const k = j + 1;
      const s = k === 1 ? scales[0]! : k === 2 ? (scales[0]! + scales[1]!) / 2 : middle(scales[k - 3]!, scales[k - 2]!, scales[k - 1]!);
      return [3 * scales[k - 1]!, k === 2 ? (sigmaOfMad(scales[0]!) + sigmaOfMad(scales[1]!)) / 2 : sigmaOfMad(s)];
    });
    const last = seen.filter((_, i) => i % 3 === 2);
    expect(last).toHaveLength(scales.length - 1);
    last.forEach(([level, sigma], j) => {
      expect(level).toBe(expected[j]![0]);
      expect(sigma).toBeCloseTo(Math.max(floor, expected[j]![1]!), 12);
    });
    // The floor (half the series' σ̂) is under most of them, so the blocks' own σ are what is seen.
    expect(expected.filter(([, sigma]) => sigma! > floor).length).toBeGreaterThanOrEqual(12);
    // Block 1 sees block 0's σ exactly: MAD 5, so 1.4826 · 5 / √2 (not · √2).
    expect(last[0]![1]).toBe((1.4826 * 5) / Math.SQRT2);
    expect(floor).toBeLessThan(sigmaOfMad(scales[0]!)); // block 1 sees block 0's σ itself
  });

  it("passes over a block only when its highest point is under the cutoff for the previous block's lowest point", () => {
    // Block 8 = [0, 0, 0, 0, 10]: level 0, lowest 0, last 10. Block 9 peaks at 5 > 0 + 1 (but under 10 + 1).
    const y = new Float64Array(100);
    y[44] = 10;
    y[47] = 5;
    const rule: ExcursionRule = { cutoff: (level) => level + 1, recoverWithin: 10 };
    expect(findExcursions(y, rule).map((e) => [e.start, e.level])).toEqual([
      [44, 0],
      [47, 0],
    ]);
  });
});

describe("recovery after an excursion", () => {
  /** 100 zeros (level 0; σ the floor), an excursion at `at` (above 50) and what follows it. */
  function run(at: number, after: number[], within: number, n = 100) {
    const y = new Float64Array(n);
    y[at] = 100;
    after.forEach((v, i) => (y[at + 1 + i] = v));
    const [e, ...rest] = findExcursions(y, above(50, within));
    expect(rest).toEqual([]);
    expect(e).toMatchObject({ start: at, end: at, level: 0 });
    return { e: e!, limit: 3 * e!.sigma };
  }

  it("is the first point where the median of three is at or under level + 3σ, within the window", () => {
    // 40 > limit; the median of (0, 40, 0) is 0, but the window starts right after the excursion.
    const { e, limit } = run(30, [40, 40, 0, 40, 0], 10);
    expect(limit).toBeGreaterThan(0);
    expect(limit).toBeLessThan(40);
    expect(e.recovered).toBe(true);
    // Not back: the median of three stays at 40 for longer than the window.
    expect(run(30, [40, 40, 40, 40, 40, 40, 0, 0], 5).e.recovered).toBe(false);
    // Back exactly at the end of the window (point 35 = 30 + 5: median(40, 0, 0) = 0), and one point too late.
    expect(run(30, [40, 40, 40, 40, 40, 0, 0, 0], 5).e.recovered).toBe(true);
    expect(run(30, [40, 40, 40, 40, 40, 0, 0, 0], 4).e.recovered).toBe(false);
  });

  it("does not count the excursion's own neighbourhood: a low point before it and one after", () => {
    // Window from 31: (0, 40, 40) → 40, (40, 40, …) → 40. From 29 it would be (0, 100, 0) → 0.
    expect(run(30, [0, 40, 40, 40, 40], 2).e.recovered).toBe(false);
  });

  it("is at or under the limit, not only under it", () => {
    const y = new Float64Array(100);
    y[30] = 100;
    const [probe] = findExcursions(y, above(50, 5));
    const limit = probe!.level + 3 * probe!.sigma;
    y.fill(limit, 31, 40);
    expect(findExcursions(y, above(50, 5))[0]!.recovered).toBe(true);
    y.fill(limit + 1e-9, 31, 40);
    expect(findExcursions(y, above(50, 5))[0]!.recovered).toBe(false);
  });

  it("is null when fewer than three points follow the excursion, and decided by the last three otherwise", () => {
    expect(run(98, [0], 10).e.recovered).toBeNull(); // end = n − 2
    expect(run(99, [], 10).e.recovered).toBeNull(); // end = n − 1
    expect(run(97, [0, 0], 10).e.recovered).toBeNull(); // end = n − 3
    expect(run(96, [0, 0, 0], 10).e.recovered).toBe(true); // end = n − 4: one window, the last three
    expect(run(96, [40, 40, 0], 10).e.recovered).toBe(false);
    expect(run(95, [40, 40, 40, 0], 10).e.recovered).toBe(false);
  });
});
