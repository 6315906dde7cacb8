import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { curve } from "../../../nodes/training/curves.js";
import { stillImproving, tailImprovement } from "../../../nodes/training/detectors/still-improving.js";
import { Prng } from "../../support/prng.js";
import { series, trainingRun } from "../../support/training-run.js";

const N = 40; // the last max(6, ⌈25 % of 40⌉) = 10 evaluations are judged

/** A val loss falling by `slope` per step from 2 with a fixed noise pattern, beside a train loss. */
function run(slope: number, noise: readonly number[]) {
  return trainingRun({ train_loss: series(N, (i) => 2.2 - 0.03 * i), val_loss: series(N, (i) => 2 - slope * i + noise[i]!) });
}

/** The tail's t (improving direction positive) at a slope: a linear trend leaves the residuals alone, so t is linear in it. */
function tAt(slope: number, noise: readonly number[]): number {
  const c = curve(run(slope, noise), "val", "loss")!;
  return -tailImprovement(c.steps, c.values, "min").fit.t;
}

/** The slope whose tail t is exactly `t` for that noise pattern. */
function slopeFor(t: number, noise: readonly number[]): number {
  const t0 = tAt(0, noise);
  return ((t - t0) / (tAt(1e-3, noise) - t0)) * 1e-3;
}

describe("TH-23 still_improving", () => {
  const rng = new Prng(7);
  const noisy = series(N, () => rng.uniform(-0.02, 0.02));

  it("fires just above 4 standard errors from flat and not just below (slope against the tail's noise)", () => {
    const inside = stillImproving.detect(run(slopeFor(4 * 1.05, noisy), noisy));
    expect(inside).toHaveLength(1);
    expect(inside[0]).toMatchObject({ id: "training.still_improving", severity: "low" });
    expect(inside[0]!.evidence[0]!.observed).toBeCloseTo(4.2, 4);
    // The 1 % level bar is not what decides here.
    expect(Number(inside[0]!.evidence[0]!.values!.tail_gain)).toBeGreaterThan(Number(inside[0]!.evidence[0]!.values!.level_threshold));
    expect(stillImproving.detect(run(slopeFor(4 * 0.95, noisy), noisy))).toEqual([]);
  });

  it("fires just above a 1 % gain of the final level on a smooth curve and not just below (level boundary)", () => {
    const smooth = series(N, () => 0);
    // Over the tail (9 steps) a slope s gains 9s; the level at the last step is 2 − 39s: solve 9s = share·(2 − 39s).
    const slopeAt = (share: number) => (share * 2) / (9 + share * 39);
    expect(stillImproving.detect(run(slopeAt(0.0105), smooth))).toHaveLength(1);
    expect(stillImproving.detect(run(slopeAt(0.0095), smooth))).toEqual([]);
  });

  it("is medium from a 20 % gain of the final level over the tail (far from converged) and low just below", () => {
    const smooth = series(N, () => 0);
    const slopeAt = (share: number) => (share * 2) / (9 + share * 39);
    expect(stillImproving.detect(run(slopeAt(0.205), smooth))[0]).toMatchObject({ severity: "medium" });
    expect(stillImproving.detect(run(slopeAt(0.195), smooth))[0]).toMatchObject({ severity: "low" });
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

  it("reads val accuracy the other way up, and needs 12 evaluations", () => {
    const acc = trainingRun({ train_loss: series(N, (i) => 2 - 0.03 * i), val_accuracy: series(N, (i) => 0.3 + 0.01 * i) });
    expect(stillImproving.detect(acc)[0]).toMatchObject({ id: "training.still_improving" });
    expect(stillImproving.detect(trainingRun({ val_loss: series(11, (i) => 2 - 0.1 * i) }))).toEqual([]);
  });

  it("fires on the real torch runs stopped while still falling (lr 0.002), not on the converged baseline (lr 0.02)", () => {
    const sweep = JSON.parse(readFileSync(new URL("../../fixtures/sweeps/torch-lr.json", import.meta.url), "utf8")) as Array<{ name: string; metrics: Record<string, number[]> }>;
    const fired = sweep.filter((r) => stillImproving.detect(trainingRun(r.metrics)).length > 0).map((r) => r.name);
    expect(fired).toEqual(expect.arrayContaining(["lr0.002-s1", "lr0.002-s2", "lr0.002-s3"]));
    expect(fired.filter((name) => name.startsWith("lr0.02-"))).toEqual([]);
  });
});
