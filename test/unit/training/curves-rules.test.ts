import { describe, expect, it } from "vitest";
import {
  binMeans,
  countBefore,
  countUpTo,
  curveExtremes,
  curveLogValues,
  curveOf,
  MAX_COARSE,
  nonFiniteCount,
  pickSeries,
  pointLabel,
  runExtent,
  seriesPrefix,
  valueAt,
  wholeSeries,
} from "../../../nodes/training/curves.js";
import type { MetricSeries } from "../../../nodes/training/model.js";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";
import { series, trainingRun } from "../../support/training-run.js";

/** A train-loss series at the given steps, with epochs when given. */
function metric(steps: number[], values: number[], epochs: number[] | null = null): MetricSeries {
  return {
    name: "train/loss",
    split: "train",
    quantity: "loss",
    aggregation: null,
    sources: ["loss"],
    steps: Float64Array.from(steps),
    values: Float64Array.from(values),
    epochs: epochs && Float64Array.from(epochs),
  };
}

/** n points at steps 0, 10, 20, …, value f(i), epoch ⌊i / 100⌋. */
const long = (n: number, f: (i: number) => number) =>
  metric(
    series(n, (i) => 10 * i),
    series(n, f),
    series(n, (i) => Math.floor(i / 100)),
  );

const plain = (c: { steps: Float64Array; values: Float64Array; epochs: Float64Array | null }) => ({
  steps: [...c.steps],
  values: [...c.values],
  epochs: c.epochs && [...c.epochs],
});

describe("pickSeries: which of Lightning's _step / plain / _epoch logs a resolution reads", () => {
  const all = { train_loss_step: [1, 2, 3], train_loss: [4, 5], train_loss_epoch: [6] };
  const first = (run: ReturnType<typeof trainingRun>, resolution: "fine" | "coarse") => pickSeries(run, "train", "loss", resolution)?.name;

  it("fine prefers @step, then the plain name, then @epoch; coarse the other way round", () => {
    const run = trainingRun(all);
    expect(first(run, "fine")).toBe("train/loss@step");
    expect(first(run, "coarse")).toBe("train/loss@epoch");
    expect(pickSeries(run, "train", "loss")?.name).toBe("train/loss@epoch");
    const noSuffix = trainingRun({ train_loss_step: [1, 2, 3], train_loss_epoch: [6] });
    expect(first(noSuffix, "fine")).toBe("train/loss@step");
    expect(first(noSuffix, "coarse")).toBe("train/loss@epoch");
    const plainOnly = trainingRun({ train_loss: [4, 5] });
    expect(first(plainOnly, "fine")).toBe("train/loss");
    expect(first(plainOnly, "coarse")).toBe("train/loss");
  });

  it("falls back to the other aggregation when its own is missing, and to nothing when neither is there", () => {
    expect(first(trainingRun({ train_loss_epoch: [6] }), "fine")).toBe("train/loss@epoch");
    expect(first(trainingRun({ train_loss_step: [1, 2] }), "coarse")).toBe("train/loss@step");
    expect(first(trainingRun({ val_loss: [1, 2] }), "fine")).toBeUndefined();
    expect(pickSeries(trainingRun({ lr: [0.1] }), "none", "lr", "fine")?.name).toBe("lr");
  });

  it("skips a series without points (a prefix cut before its first step)", () => {
    const run = trainingRun({ train_loss_step: [1, 2, 3], train_loss: [4, 5] });
    run.series.set("train/loss@step", seriesPrefix(run.series.get("train/loss@step")!, 0));
    expect(first(run, "fine")).toBe("train/loss");
  });
});

describe("curves of a series", () => {
  it("coarse bins a series longer than MAX_COARSE into MAX_COARSE means (the default resolution), each bin standing for its points", () => {
    const s = long(1000, (i) => i);
    const coarse = curveOf(s);
    expect(curveOf(s, "coarse")).toBe(coarse);
    expect(coarse.values.length).toBe(MAX_COARSE);
    expect(coarse.logged).toBe(1000);
    expect([...coarse.values.subarray(0, 3)]).toEqual([0.5, 3, 5.5]);
    expect([...coarse.steps.subarray(0, 3)]).toEqual([10, 40, 60]);
    const fine = curveOf(s, "fine");
    expect(fine.values.length).toBe(1000);
  });

  it("a series of MAX_COARSE points or fewer is its own coarse curve, one point per value", () => {
    for (const n of [MAX_COARSE, 7]) {
      const s = long(n, (i) => i);
      expect(curveOf(s, "coarse")).toBe(curveOf(s, "fine"));
    }
    const empty = metric([], []);
    expect(curveOf(empty, "fine").values.length).toBe(0);
  });

  it("keeps the finite points and counts the others", () => {
    const s = metric([0, 1, 2, 3, 4], [1, Number.NaN, 3, Number.POSITIVE_INFINITY, 5], [0, 0, 1, 1, 2]);
    expect(plain(curveOf(s, "fine"))).toEqual({ steps: [0, 2, 4], values: [1, 3, 5], epochs: [0, 1, 2] });
    expect(nonFiniteCount(s)).toBe(2);
    expect(curveOf(s, "fine").logged).toBe(3);
  });

  it("is computed once per series and resolution: the same curve, log values and extremes each time", () => {
    const s = metric([0, 1, 2, 3], [4, 1, 8, 2]);
    const fine = curveOf(s, "fine");
    expect(curveOf(s, "fine")).toBe(fine);
    expect(curveOf(s)).toBe(fine);
    const logs = curveLogValues(fine);
    expect([...logs]).toEqual([Math.log(4), 0, Math.log(8), Math.log(2)]);
    expect(curveLogValues(fine)).toBe(logs);
    const extremes = curveExtremes(fine);
    expect(extremes).toEqual([1, 2]);
    expect(curveExtremes(fine)).toBe(extremes);
  });
});

describe("prefixes of a series and their curves", () => {
  it("keeps the first n points, epochs included, and knows the whole series it was cut from", () => {
    const s = metric([0, 10, 20, 30], [4, 3, 2, 1], [0, 0, 1, 1]);
    const p = seriesPrefix(s, 3);
    expect(p.name).toBe("train/loss");
    expect(plain(p)).toEqual({ steps: [0, 10, 20], values: [4, 3, 2], epochs: [0, 0, 1] });
    expect(wholeSeries(p)).toEqual({ whole: s, length: 3 });
    // A prefix of a prefix is cut from the whole series.
    const pp = seriesPrefix(p, 2);
    expect(wholeSeries(pp)).toEqual({ whole: s, length: 2 });
    expect(wholeSeries(s)).toEqual({ whole: s, length: 4 });
    expect(seriesPrefix(metric([0, 1], [1, 2]), 1).epochs).toBeNull();
  });

  it("a prefix's fine curve is the whole series' finite points up to its last step, epochs and log values included", () => {
    const s = metric([0, 10, 20, 30, 40, 50], [8, Number.NaN, 4, 2, Number.NaN, 1], [0, 0, 1, 1, 2, 2]);
    const p = seriesPrefix(s, 4);
    const fine = curveOf(p, "fine");
    expect(plain(fine)).toEqual({ steps: [0, 20, 30], values: [8, 4, 2], epochs: [0, 1, 1] });
    expect(fine.logged).toBe(3);
    expect(fine.name).toBe("train/loss");
    expect([...curveLogValues(fine)]).toEqual([Math.log(8), Math.log(4), Math.log(2)]);
    expect(nonFiniteCount(p)).toBe(1);
    expect(plain(curveOf(seriesPrefix(s, 3), "fine"))).toEqual({ steps: [0, 20], values: [8, 4], epochs: [0, 1] });
    expect(curveOf(seriesPrefix(s, 6), "fine").values.length).toBe(4);
    // Cut before its first finite point, or to nothing.
    expect(curveOf(seriesPrefix(metric([0, 1, 2], [Number.NaN, 1, 2]), 1), "fine").values.length).toBe(0);
    expect(curveOf(seriesPrefix(s, 0), "fine").values.length).toBe(0);
  });

  it("a long prefix's curves: fine is every point, not the whole series' bins; coarse bins the prefix's own points", () => {
    const s = long(2000, (i) => i);
    const p = seriesPrefix(s, 1000);
    const fine = curveOf(p, "fine");
    expect(fine.values.length).toBe(1000);
    expect(fine.values[999]).toBe(999);
    const coarse = curveOf(p, "coarse");
    expect(coarse.values.length).toBe(MAX_COARSE);
    expect(plain(coarse)).toEqual(plain(curveOf(long(1000, (i) => i), "coarse")));
  });
});

describe("binMeans", () => {
  it("averages consecutive points into bins of nearly equal count; a bin's step and epoch are its last point's", () => {
    const steps = Float64Array.from([1, 2, 3, 4, 5, 6, 7]);
    const values = Float64Array.from([1, 3, 5, 7, 9, 11, 13]);
    const epochs = Float64Array.from([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]);
    expect(plain(binMeans(steps, values, 3, epochs))).toEqual({ steps: [2, 4, 7], values: [2, 6, 11], epochs: [0.2, 0.4, 0.7] });
    expect(binMeans(steps, values, 3).epochs).toBeNull();
  });
});

describe("pointLabel", () => {
  const labels = (epochs: number[] | null) => {
    const c = curveOf(metric([7079, 7080, 7081, 7082], [1, 2, 3, 4], epochs), "fine");
    return [0, 1, 2, 3].map((i) => pointLabel(c, i));
  };

  it("names the epoch only when it is known and is not the step itself, to 4 significant digits", () => {
    expect(labels([23, 23.456789, Number.NaN, 7082])).toEqual(["step 7079 (epoch 23)", "step 7080 (epoch 23.46)", "step 7081", "step 7082"]);
    expect(labels(null)).toEqual(["step 7079", "step 7080", "step 7081", "step 7082"]);
  });
});

describe("valueAt: linear interpolation between logged steps, clamped at the ends", () => {
  const c = { steps: Float64Array.from([10, 20, 30, 40]), values: Float64Array.from([1000, 0.1, 900, 0.3]) };

  it("is the logged value itself at a logged step", () => {
    expect([10, 20, 30, 40].map((s) => valueAt(c, s))).toEqual([1000, 0.1, 900, 0.3]);
  });

  it("interpolates between neighbours", () => {
    expect(valueAt(c, 25)).toBeCloseTo(450.05, 9);
    expect(valueAt(c, 22)).toBeCloseTo(0.1 + 0.2 * 899.9, 9);
    expect(valueAt(c, 39)).toBeCloseTo(900 - 0.9 * 899.7, 9);
    expect(valueAt({ steps: Float64Array.from([10, 20]), values: Float64Array.from([1, 3]) }, 12.5)).toBe(1.5);
  });

  it("holds the first value before the first step and the last after the last", () => {
    expect(valueAt(c, 0)).toBe(1000);
    expect(valueAt(c, -1e9)).toBe(1000);
    expect(valueAt(c, 41)).toBe(0.3);
    expect(valueAt(c, 1e9)).toBe(0.3);
    expect(valueAt({ steps: Float64Array.from([5]), values: Float64Array.from([2]) }, 7)).toBe(2);
  });
});

describe("countUpTo and countBefore", () => {
  const steps = Float64Array.from([0, 10, 10, 20]);

  it("count the points at or before a step, and strictly before it", () => {
    const at = [-1, 0, 5, 10, 15, 20, 25];
    expect(at.map((s) => countUpTo(steps, s))).toEqual([0, 1, 1, 3, 3, 4, 4]);
    expect(at.map((s) => countBefore(steps, s))).toEqual([0, 0, 1, 1, 3, 3, 4]);
    expect(countUpTo(new Float64Array(0), 3)).toBe(0);
    expect(countBefore(new Float64Array(0), 3)).toBe(0);
  });
});

describe("runExtent", () => {
  it("spans the first and last step over every series; 0 to 0 without any", () => {
    const run = trainingRun({ loss: [[5, 1], [50, 2]], val_loss: [[20, 1], [80, 2]], lr: [[3, 0.1], [60, 0.2]] });
    expect(runExtent(run)).toEqual({ first: 3, last: 80 });
    expect(runExtent(parseTrainingArtifact({ logs: ["Epoch 1 started"] }))).toEqual({ first: 0, last: 0 });
  });
});
