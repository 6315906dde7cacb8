import { describe, expect, it } from "vitest";
import { binMeans, curveOf, MAX_COARSE, nonFiniteCount } from "../../../nodes/training/curves.js";
import type { MetricSeries } from "../../../nodes/training/model.js";
import { Prng } from "../../support/prng.js";

const rng = new Prng(1125);

function series(values: Float64Array, withEpochs: boolean): MetricSeries {
  const steps = Float64Array.from(values, (_, i) => 10 * i);
  const epochs = withEpochs ? Float64Array.from(values, (_, i) => Math.floor(i / 100)) : null;
  return { name: "train/loss", split: "train", quantity: "loss", aggregation: "step", sources: ["loss"], steps, values, epochs };
}

/** The curves the long way: the finite points picked one by one, then binned. */
function expected(s: MetricSeries) {
  const keep = [...s.values.keys()].filter((i) => Number.isFinite(s.values[i]!));
  const pick = (a: Float64Array) => Float64Array.from(keep, (i) => a[i]!);
  const fine = { steps: pick(s.steps), values: pick(s.values), epochs: s.epochs ? pick(s.epochs) : null };
  const coarse = fine.values.length > MAX_COARSE ? binMeans(fine.steps, fine.values, MAX_COARSE, fine.epochs) : fine;
  return { fine, coarse, nonFinite: s.values.length - keep.length };
}

describe("curves of a long series, found finite by their own bins", () => {
  it("are the finite points and their bins, with NaN, ±Infinity, values whose sum overflows, or none of them", () => {
    const cases: Array<[string, (v: Float64Array) => void]> = [
      ["finite", () => {}],
      ["one NaN", (v) => (v[rng.int(0, v.length - 1)] = Number.NaN)],
      ["+Infinity and −Infinity in one bin", (v) => ((v[10] = Number.POSITIVE_INFINITY), (v[11] = Number.NEGATIVE_INFINITY))],
      ["finite values whose bin sum overflows", (v) => ((v[500] = 1.5e308), (v[501] = 1.5e308))],
      ["mostly NaN (fewer finite points than bins)", (v) => v.forEach((_, i) => i % 7 && (v[i] = Number.NaN))],
    ];
    for (const n of [MAX_COARSE, MAX_COARSE + 1, 2003]) {
      for (const [, poison] of cases) {
        for (const withEpochs of [false, true]) {
          const values = Float64Array.from({ length: n }, () => rng.normal());
          if (n > 600) poison(values);
          const s = series(values, withEpochs);
          const want = expected(s);
          const fine = curveOf(s, "fine");
          const coarse = curveOf(s, "coarse");
          expect({ steps: fine.steps, values: fine.values, epochs: fine.epochs }).toEqual(want.fine);
          expect({ steps: coarse.steps, values: coarse.values, epochs: coarse.epochs }).toEqual(want.coarse);
          expect(nonFiniteCount(s)).toBe(want.nonFinite);
          expect(coarse.logged).toBe(n - want.nonFinite);
        }
      }
    }
  });
});
