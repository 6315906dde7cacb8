import { describe, expect, it } from "vitest";
import { m4Indices, MAX_POINTS_PER_SERIES, MAX_SERIES, panelOf, summarizeCurves, toCurve } from "../../../report/curves.js";

/** A seeded, noisy decreasing curve (mulberry32), so the tests never depend on Math.random. */
function noisyCurve(n: number, seed: number): number[] {
  let a = seed;
  const rand = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: n }, (_, i) => 2 * Math.exp(-i / 400) + 0.05 * rand());
}

describe("m4Indices", () => {
  it("keeps every point of a short series", () => {
    expect(m4Indices([3, 1, 2], 10)).toEqual([0, 1, 2]);
  });

  it("bounds a long series and keeps its first, last, global extremes and a lone spike", () => {
    const values = noisyCurve(5000, 7);
    values[3210] = 40; // a loss spike
    const kept = m4Indices(values, 200);
    expect(kept.length).toBeLessThanOrEqual(200);
    expect(kept[0]).toBe(0);
    expect(kept.at(-1)).toBe(4999);
    expect(kept).toContain(3210);
    expect(kept).toContain(values.indexOf(Math.min(...values)));
    expect(kept).toEqual([...kept].sort((a, b) => a - b));
  });

  it("never drops a non-finite value", () => {
    const values = noisyCurve(3000, 11);
    values[1234] = Number.NaN;
    values[2222] = Number.POSITIVE_INFINITY;
    const kept = m4Indices(values, 100);
    expect(kept).toContain(1234);
    expect(kept).toContain(2222);
  });
});

describe("curves summary", () => {
  it("puts each quantity on its panel, from the analyzer's quantity or the name", () => {
    expect(panelOf({ name: "val/loss", quantity: "loss" })).toBe("loss");
    expect(panelOf({ name: "eval_loss" })).toBe("loss");
    expect(panelOf({ name: "lr-AdamW" })).toBe("lr");
    expect(panelOf({ name: "lr", quantity: "lr" })).toBe("lr");
    expect(panelOf({ name: "val_acc" })).toBe("metric");
    expect(panelOf({ name: "val/f1", quantity: "f1" })).toBe("metric");
    expect(panelOf({ name: "grad_norm", quantity: "grad_norm" })).toBe("other");
  });

  it("turns non-finite values into null and records how many points were logged", () => {
    const curve = toCurve({ name: "train_loss", steps: [0, 10, 20], values: [1.2, Number.NaN, 0.8] });
    expect(curve).toEqual({ name: "train_loss", panel: "loss", split: "train", steps: [0, 10, 20], values: [1.2, null, 0.8], points: 3 });
  });

  it("keeps at most MAX_SERIES series, losses first and validation before train, and names the rest", () => {
    const series = Array.from({ length: MAX_SERIES + 3 }, (_, i) => ({ name: `train_metric_${String(i).padStart(2, "0")}`, steps: [0, 1], values: [i, i] }));
    series.push({ name: "train_loss", steps: [0], values: [1] }, { name: "val_loss", steps: [0], values: [1] });
    const summary = summarizeCurves(series);
    expect(summary.series).toHaveLength(MAX_SERIES);
    expect(summary.series.slice(0, 2).map((c) => c.name)).toEqual(["val_loss", "train_loss"]);
    expect(summary.omitted).toHaveLength(5);
  });

  it("bounds the points of every series", () => {
    const values = noisyCurve(20_000, 3);
    const summary = summarizeCurves([{ name: "train/loss", split: "train", quantity: "loss", steps: values.map((_, i) => i), values: Float64Array.from(values) }]);
    expect(summary.series[0]!.values.length).toBeLessThanOrEqual(MAX_POINTS_PER_SERIES);
    expect(summary.series[0]!.points).toBe(20_000);
  });
});
