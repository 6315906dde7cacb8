import { describe, expect, it, vi } from "vitest";
import { type ExcursionRule, findExcursions } from "../../../nodes/training/excursions.js";
import { median, medianInPlace, selectable, selectableMedianInPlace } from "../../../nodes/training/stats.js";
import { Prng } from "../../support/prng.js";

const rng = new Prng(20261125);

/** Values with many ties (rounded to a coarse grid), +0 among them, and a few huge ones that still pass. */
function tiedValues(n: number): Float64Array {
  return Float64Array.from({ length: n }, () => {
    const r = rng.next();
    if (r < 0.05) return 0;
    if (r < 0.08) return rng.pick([1e300, -1e300, 2 ** 1020]);
    // + 0: Math.round gives −0 for small negatives, which `selectable` refuses.
    return Math.round(rng.normal() * 4) / 4 + 0;
  });
}

/**
 * findExcursions as it is when no block is `selectable`: a second instance of excursions.ts, loaded over stats.ts
 * with `selectable` answering false, so every median is medianInPlace's (the reference the faster path must equal).
 */
async function findExcursionsByQuickselect(): Promise<typeof findExcursions> {
  const stats = "../../../nodes/training/stats.js";
  vi.resetModules();
  vi.doMock(stats, async (importOriginal) => ({ ...(await importOriginal<typeof import("../../../nodes/training/stats.js")>()), selectable: () => false }));
  try {
    return (await import("../../../nodes/training/excursions.js")).findExcursions;
  } finally {
    vi.doUnmock(stats);
    vi.resetModules();
  }
}

/** A noisy log-loss-like series with spikes, ties, and in some blocks NaN, −0, ±Infinity or a huge value. */
function series(n: number, poisoned: boolean): Float64Array {
  const y = Float64Array.from({ length: n }, (_, i) => Math.round((2 * Math.exp(-i / n) + 0.3 * rng.normal()) * 64) / 64 + 0);
  for (let s = 0; s < 8; s++) y[rng.int(0, n - 1)] = 10 + 10 * rng.next();
  if (poisoned) {
    for (let s = 0; s < n / 40; s++) y[rng.int(0, n - 1)] = rng.pick([Number.NaN, -0, 0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e308, -1e308]);
    // Stretches of mostly zeros of both signs, where a median is a zero and its sign is the selection's to keep.
    for (let s = 0; s < 4; s++) {
      const from = rng.int(0, n - 200);
      for (let i = from; i < from + 200; i++) y[i] = rng.pick([-0, 0, 0, -0, 1 / 64, -1 / 64]);
    }
  }
  return y;
}

const RULES: Array<[string, ExcursionRule]> = [
  ["loss spikes", { cutoff: (level, sigma) => level + Math.max(6 * sigma, Math.log(1.1)), recoverWithin: 50 }],
  // A low cutoff, so that most blocks need their median and σ̂ and many points are flagged.
  ["two sigma", { cutoff: (level, sigma) => level + 2 * sigma, recoverWithin: 20 }],
];

describe("the faster median (selectableMedianInPlace)", () => {
  it("equals medianInPlace bit for bit on arrays that pass `selectable`: odd and even lengths, ties, +0, huge values", () => {
    for (let t = 0; t < 3000; t++) {
      const a = tiedValues(1 + rng.int(0, 120));
      expect(selectable(a)).toBe(true);
      const fast = a.slice();
      const got = selectableMedianInPlace(fast);
      expect(Object.is(got, medianInPlace(a.slice()))).toBe(true);
      // Reordered, nothing lost or replaced.
      expect(Float64Array.from(fast).sort()).toEqual(Float64Array.from(a).sort());
    }
    expect(selectableMedianInPlace(new Float64Array(0))).toBeNaN();
  });

  it("gives median() medianInPlace's result on long arrays: ties, a constant, sorted and reversed runs, with and without NaN or −0", () => {
    const n = 20_001;
    const arrays = [
      tiedValues(n),
      tiedValues(n - 1),
      new Float64Array(n).fill(0.25),
      Float64Array.from({ length: n }, (_, i) => i),
      Float64Array.from({ length: n - 1 }, (_, i) => -i / 7),
      Float64Array.from({ length: n }, (_, i) => (i % 3) - 1 + 0),
    ];
    for (const a of arrays) {
      expect(Object.is(median(a), medianInPlace(a.slice()))).toBe(true);
      for (const poison of [Number.NaN, -0]) {
        const b = a.slice();
        b[rng.int(0, b.length - 1)] = poison;
        expect(Object.is(median(b), medianInPlace(b.slice()))).toBe(true);
      }
    }
  });

  it("is refused for NaN, −0, ±Infinity and magnitudes from 2^1021 on, and allowed for +0 and just below", () => {
    for (const bad of [Number.NaN, -0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2 ** 1021, -(2 ** 1021), Number.MAX_VALUE]) {
      expect(selectable([1, bad, 2])).toBe(false);
      // Only the range asked about is looked at.
      expect(selectable([1, bad, 2], 2, 3)).toBe(true);
    }
    expect(selectable([0, 2 ** 1020 * 1.999, -(2 ** 1020) * 1.999, Number.MIN_VALUE])).toBe(true);
  });
});

describe("excursions with the faster median where a block allows it", () => {
  it("finds exactly what quickselect alone finds, with NaN, −0, ±Infinity and ties in some blocks and not in others", async () => {
    const reference = await findExcursionsByQuickselect();
    for (const poisoned of [false, true]) {
      for (let t = 0; t < 6; t++) {
        const y = series(5000, poisoned);
        const blocks = Array.from({ length: 100 }, (_, k) => selectable(y, 50 * k, 50 * k + 50));
        // Both paths are taken: clean blocks by the faster median, poisoned ones by quickselect.
        expect(blocks.some(Boolean)).toBe(true);
        if (poisoned) expect(blocks.every(Boolean)).toBe(false);
        for (const [, rule] of RULES) {
          const fast = findExcursions(y, rule);
          expect(fast).toEqual(reference(y.slice(), rule));
          if (rule === RULES[1]![1]) expect(fast.length).toBeGreaterThan(5);
        }
      }
    }
  });
});
