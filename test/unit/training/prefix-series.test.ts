import { describe, expect, it } from "vitest";
import { seriesPrefix } from "../../../nodes/training/curves.js";
import { runUpTo } from "../../../nodes/training/detected-at.js";
import type { MetricSeries } from "../../../nodes/training/model.js";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";
import { PrefixSeries } from "../../../nodes/training/prefix-series.js";

/** A Lightning-like run: per-step train loss, per-epoch val loss and lr, one series that starts late. */
function run() {
  const rows: string[] = ["step,train_loss_step,val_loss,lr-AdamW,late"];
  for (let step = 0; step < 200; step++) {
    const cells = [String(step), String(1 / (step + 1)), step % 20 === 19 ? String(0.5 + step / 1000) : "", step % 50 === 0 ? "0.001" : "", step >= 120 ? String(step) : ""];
    rows.push(cells.join(","));
  }
  return parseTrainingArtifact({ metrics: { format: "csv", content: rows.join("\n") } });
}

/** What a series is as data: its names and its points. */
const asData = (s: MetricSeries | undefined) => s && { ...s, steps: [...s.steps], values: [...s.values], epochs: s.epochs && [...s.epochs] };

describe("the series of a run's prefix, cut when read", () => {
  it("reads as the Map of its cut series in every way a detector reads a map, in the run's order", () => {
    const whole = run();
    const kept = [...whole.series].map(([name, s]) => [name, s, Math.min(s.steps.length, 3)] as const);
    const expected = new Map(kept.map(([name, s, n]) => [name, n === s.steps.length ? s : seriesPrefix(s, n)]));
    const expectedData = [...expected].map(([name, s]) => [name, asData(s)]);

    const lazy = () => new PrefixSeries(kept);
    expect(lazy().size).toBe(expected.size);
    expect([...lazy().keys()]).toEqual([...expected.keys()]);
    expect(lazy().has("train/loss@step")).toBe(true);
    expect(lazy().has("nothing")).toBe(false);
    expect(lazy().get("nothing")).toBeUndefined();
    expect([...lazy()].map(([name, s]) => [name, asData(s)])).toEqual(expectedData);
    expect([...lazy().entries()].map(([name, s]) => [name, asData(s)])).toEqual(expectedData);
    expect([...lazy().values()].map(asData)).toEqual(expectedData.map(([, s]) => s));
    const visited: unknown[] = [];
    lazy().forEach((s, name, map) => visited.push([name, asData(s), map instanceof PrefixSeries]));
    expect(visited).toEqual(expectedData.map(([name, s]) => [name, s, true]));
    // Read by name first, then listed: the same object both ways, cut once.
    const mixed = lazy();
    const first = mixed.get("val/loss");
    expect([...mixed.values()]).toContain(first);
    expect(mixed.get("val/loss")).toBe(first);
  });

  it("gives every prefix of a run the points logged up to its step, series without any left out", () => {
    const whole = run();
    for (const step of [0, 19, 50, 119, 120, 150.5, 199, 1000]) {
      const prefix = runUpTo(whole, step);
      const expected = [...whole.series].flatMap(([name, s]) => {
        const n = s.steps.filter((x) => x <= step).length;
        return n === 0 ? [] : [[name, { ...asData(s)!, steps: [...s.steps].slice(0, n), values: [...s.values].slice(0, n), epochs: s.epochs && [...s.epochs].slice(0, n) }]];
      });
      expect([...prefix.series].map(([name, s]) => [name, asData(s)]), `step ${step}`).toEqual(expected);
    }
  });
});
