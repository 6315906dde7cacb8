import { describe, expect, it } from "vitest";
import { curve } from "../../../nodes/training/curves.js";
import { stillImproving, tailImprovement } from "../../../nodes/training/detectors/still-improving.js";
import { Prng } from "../../support/prng.js";
import { series, trainingRun } from "../../support/training-run.js";

const N = 40;
const SPAN = 9; // the last max(4, ⌈25 % of 40⌉) = 10 evaluations span 9 steps

/** A val loss falling by `slope` per step from 2 with a fixed noise pattern, beside a train loss. */
function run(slope: number, noise: readonly number[]) {
  return trainingRun({ train_loss: series(N, (i) => 2.2 - 0.03 * i), val_loss: series(N, (i) => 2 - slope * i + noise[i]!) });
}

/** The slope whose fitted tail gain is exactly `gain` for that noise pattern (the fit is linear in the slope). */
function slopeFor(gain: number, noise: readonly number[]): number {
  const flat = curve(run(0, noise), "val", "loss")!;
  return (gain - tailImprovement(flat.steps, flat.values, "min").gain) / SPAN;
}

describe("TH-23 still_improving", () => {
  const rng = new Prng(7);
  const noisy = series(N, () => rng.uniform(-0.02, 0.02));

  it("fires just above 3 σ̂ of one evaluation and not just below (noise-bound boundary)", () => {
    const sigma = curve(run(0, noisy), "val", "loss")!.noise; // the noise estimate ignores a constant slope
    expect(3 * sigma).toBeGreaterThan(0.01 * 1.9); // the noise bar, not the 1 % level bar, decides here
    const inside = stillImproving.detect(run(slopeFor(3 * sigma * 1.05, noisy), noisy));
    expect(inside).toHaveLength(1);
    expect(inside[0]).toMatchObject({ id: "training.still_improving", severity: "medium" });
    expect(inside[0]!.evidence[0]!.observed).toBeCloseTo(3 * sigma * 1.05, 5);
    expect(stillImproving.detect(run(slopeFor(3 * sigma * 0.95, noisy), noisy))).toEqual([]);
  });

  it("fires just above 1 % of the final level on a smooth curve and not just below (level-bound boundary)", () => {
    const smooth = series(N, () => 0);
    // Level at the last step ≈ 2 − 39·slope; a gain g over 9 steps means slope g/9.
    const gainAt = (share: number) => {
      // Solve g = share·(2 − 39·g/9) for g.
      return (share * 2) / (1 + (share * 39) / 9);
    };
    expect(stillImproving.detect(run(gainAt(0.0105) / SPAN, smooth))).toHaveLength(1);
    expect(stillImproving.detect(run(gainAt(0.0095) / SPAN, smooth))).toEqual([]);
  });

  it("stays quiet on plateaued noisy runs (30 seeds) and on a curve that flattened before the end", () => {
    const fired = Array.from({ length: 30 }, (_, s) => {
      const r = new Prng(100 + s);
      return stillImproving.detect(trainingRun({ train_loss: series(N, (i) => 1.5 - 0.01 * i), val_loss: series(N, () => 0.8 + r.uniform(-0.1, 0.1)) })).length;
    }).reduce((a, b) => a + b, 0);
    expect(fired).toBe(0);
    const converged = trainingRun({ train_loss: series(N, (i) => 2 * Math.exp(-i / 5) + 0.1), val_loss: series(N, (i) => 2 * Math.exp(-i / 5) + 0.3 + noisy[i]! / 4) });
    expect(stillImproving.detect(converged)).toEqual([]);
  });

  it("reads val accuracy the other way up, and needs 8 evaluations", () => {
    const acc = trainingRun({ train_loss: series(N, (i) => 2 - 0.03 * i), val_accuracy: series(N, (i) => 0.3 + 0.01 * i) });
    expect(stillImproving.detect(acc)[0]).toMatchObject({ id: "training.still_improving" });
    expect(stillImproving.detect(trainingRun({ val_loss: series(7, (i) => 2 - 0.1 * i) }))).toEqual([]);
  });
});
