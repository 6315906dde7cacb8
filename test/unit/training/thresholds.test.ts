import { describe, expect, it } from "vitest";
import { nonfiniteLoss } from "../../../nodes/training/detectors/nonfinite-loss.js";
import { overClipping } from "../../../nodes/training/detectors/over-clipping.js";
import { findOverfitting, overfitting } from "../../../nodes/training/detectors/overfitting.js";
import { suspiciousPerfection } from "../../../nodes/training/detectors/suspicious-perfection.js";
import { smoothingWindow } from "../../../nodes/training/stats.js";
import { Prng } from "../../support/prng.js";
import { series, trainingRun } from "../../support/training-run.js";

/**
 * TH-13's threshold pinned at its edge. A run whose validation loss falls, stays flat, then rises by `amplitude`
 * over its last 40 evaluations, with Gaussian noise, while the training loss keeps falling: the smallest
 * amplitude that fires is found by bisection, and there the rise must be just over the threshold, which must be
 * Z = 3 standard errors of a difference of window means plus the minimum's selection bias.
 */
const N = 80;
const noise = series(N, () => 0);
{
  const rng = new Prng(34);
  for (let i = 0; i < N; i++) noise[i] = 0.01 * rng.normal();
}
const run = (amplitude: number) =>
  trainingRun({
    "val/loss": series(N, (i) => (i < 30 ? 1 - (0.3 * i) / 30 : i < 40 ? 0.7 : 0.7 + (amplitude * (i - 40)) / 39) + noise[i]!),
    "train/loss": series(N, (i) => 1 - (0.8 * i) / N),
  });

/** The smallest amplitude (to 1e-6) at which TH-13 fires, between a quiet and a firing one. */
function firingEdge(quiet: number, firing: number): number {
  let [lo, hi] = [quiet, firing];
  while (hi - lo > 1e-6) {
    const mid = (lo + hi) / 2;
    if (findOverfitting(run(mid))) hi = mid;
    else lo = mid;
  }
  return hi;
}

describe("TH-13 overfitting: the rise must exceed 3 standard errors of a difference of window means plus the selection bias", () => {
  it("fires just above the edge and not just below, where the rise crosses the threshold", () => {
    expect(overfitting.detect(run(0))).toEqual([]);
    expect(overfitting.detect(run(0.3))).not.toEqual([]);
    const edge = firingEdge(0, 0.3);
    expect(overfitting.detect(run(edge * 0.98))).toEqual([]);
    const inside = findOverfitting(run(edge * 1.02))!;
    expect(inside).not.toBeNull();
    // The edge is the threshold's, not the trend test's: just inside, the rise is within 3 % above the threshold.
    expect(inside.rise / inside.threshold).toBeGreaterThan(1);
    expect(inside.rise / inside.threshold).toBeLessThan(1.03);
  });

  it("sets the threshold at Z = 3 (√2 · 3 standard errors, plus √(2 ln(n/w)) of selection bias)", () => {
    const o = findOverfitting(run(0.3))!;
    const w = smoothingWindow(N);
    const se = o.noise / Math.sqrt(w);
    expect(o.threshold).toBeCloseTo(se * (3 * Math.SQRT2 + Math.sqrt(2 * Math.log(N / w))), 10);
  });
});

describe("TH-01 non-finite loss: a loss ≥ 1e5 counts as exploded", () => {
  const loss = (peak: number) => trainingRun({ "train/loss": series(30, (i) => (i === 20 ? peak : 1 - i / 60)) });
  it("fires at 1e5 and not just below", () => {
    expect(nonfiniteLoss.detect(loss(1e5))).toHaveLength(1);
    expect(nonfiniteLoss.detect(loss(99_999))).toEqual([]);
  });
});

describe("TH-19 suspicious perfection: val accuracy ≥ 0.99 in the first 10 % of evaluations, or a final val loss < 1e-3", () => {
  const accuracy = (early: number, at = 1) => trainingRun({ "val/accuracy": series(40, (i) => (i === at ? early : 0.6 + i / 200)) });
  it("fires at 0.99 within the first 10 % and not just below it, nor after that share", () => {
    expect(suspiciousPerfection.detect(accuracy(0.99))).toHaveLength(1);
    expect(suspiciousPerfection.detect(accuracy(0.9899))).toEqual([]);
    // 40 evaluations: the first 4 are checked, the fifth is not.
    expect(suspiciousPerfection.detect(accuracy(0.99, 3))).toHaveLength(1);
    expect(suspiciousPerfection.detect(accuracy(0.99, 4))).toEqual([]);
  });

  it("fires for a final val loss just under 1e-3 and not at it", () => {
    const loss = (last: number) => trainingRun({ "val/loss": series(20, (i) => (i === 19 ? last : 1 - i / 40)) });
    expect(suspiciousPerfection.detect(loss(0.00099))).toHaveLength(1);
    expect(suspiciousPerfection.detect(loss(0.001))).toEqual([]);
  });
});

describe("TH-12 over-clipping: more than 50 % of the gradient norms at the clipping threshold → low, more than 80 % → medium", () => {
  const clipped = (share: number) =>
    trainingRun({ grad_norm: series(100, (i) => (i < share * 100 ? 1 : 0.4)) }, { params: { max_grad_norm: 1 } });
  it("is low just above half and quiet at half, medium just above 80 % and low at it", () => {
    expect(overClipping.detect(clipped(0.51)).map((f) => f.severity)).toEqual(["low"]);
    expect(overClipping.detect(clipped(0.5))).toEqual([]);
    expect(overClipping.detect(clipped(0.81)).map((f) => f.severity)).toEqual(["medium"]);
    expect(overClipping.detect(clipped(0.8)).map((f) => f.severity)).toEqual(["low"]);
  });
});
