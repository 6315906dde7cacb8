import { describe, expect, it } from "vitest";
import { oscillation } from "../../../nodes/training/detectors/oscillation.js";
import { fitLine } from "../../../nodes/training/stats.js";
import { series, trainingRun } from "../../support/training-run.js";

/**
 * TH-07's rules at their edges (detectors-loss.test.ts has the synthetic runs): the detrended coefficient of
 * variation of the last 30 % of a loss above 0.2, the 6 late points it needs, and the validation-accuracy swings
 * (≥ max(0.03, 3√2 SE) in ≥ 20 % of the late evaluations) read only with a known evaluation-set size.
 */

/** A loss of 1 for the first 70 %, then alternating 1 ± `a` (the late window is the last 12 of 40 points). */
const swinging = (a: number, n = 40) => series(n, (i) => (i < Math.floor(0.7 * n) ? 1 : 1 + (i % 2 ? a : -a)));

/** The detrended CV the rule computes over points from..n (each point its own bin). */
function cvOf(values: number[], from: number): number {
  const steps = Float64Array.from(values.slice(from), (_, i) => from + i);
  const late = Float64Array.from(values.slice(from));
  const level = late.reduce((a, b) => a + b, 0) / late.length;
  return fitLine(steps, late).residualSd / level;
}

describe("TH-07 oscillation of a late loss", () => {
  it("fires when the late loss's detrended CV is just above 0.2 and not just below", () => {
    const inside = swinging(0.187);
    const outside = swinging(0.182);
    expect(cvOf(inside, 28)).toBeGreaterThan(0.2);
    expect(cvOf(outside, 28)).toBeLessThan(0.2);
    const [f] = oscillation.detect(trainingRun({ loss: inside }));
    expect(f).toMatchObject({ id: "training.oscillation", severity: "medium", title: "Late-training oscillation" });
    expect(oscillation.detect(trainingRun({ loss: outside }))).toEqual([]);
  });

  it("reports the CV, the late window and its start", () => {
    const loss = swinging(0.3);
    const [f] = oscillation.detect(trainingRun({ loss }));
    const e = f!.evidence[0]!;
    expect(e).toMatchObject({ rule_id: "TH-07", artifact: "training_artifacts.metrics:train/loss", threshold: 0.2, window: [28, 39], n_points: 12 });
    expect(Number(e.observed)).toBeCloseTo(cvOf(loss, 28), 5);
    expect(e.text).toContain("from step 28");
    expect(e.text).toContain("(threshold 0.2)");
    expect(f!.description).toContain("Late in training the train/loss keep swinging");
  });

  it("names both losses when both swing, with a higher confidence than one alone", () => {
    const one = oscillation.detect(trainingRun({ loss: swinging(0.3) }))[0]!;
    const both = oscillation.detect(trainingRun({ loss: swinging(0.3), val_loss: swinging(0.3) }))[0]!;
    expect(both.evidence.map((e) => e.artifact)).toEqual(["training_artifacts.metrics:train/loss", "training_artifacts.metrics:val/loss"]);
    expect(both.description).toContain("train/loss and val/loss");
    expect(both.confidence).toBeGreaterThan(one.confidence);
  });

  it("needs 6 late points: 20 points (6 late) are judged, 19 … 17 too, 16 (5 late) are not", () => {
    expect(oscillation.detect(trainingRun({ loss: swinging(0.5, 20) }))).toHaveLength(1);
    expect(oscillation.detect(trainingRun({ loss: swinging(0.5, 17) }))).toHaveLength(1);
    expect(oscillation.detect(trainingRun({ loss: swinging(0.5, 16) }))).toEqual([]);
  });

  it("does not divide by a level at or below zero", () => {
    const negative = swinging(0.5).map((v) => v - 1.2);
    expect(oscillation.detect(trainingRun({ loss: negative }))).toEqual([]);
  });
});

describe("TH-07 validation-accuracy swings", () => {
  /** Val accuracy at 0.8 for 28 evaluations, then `late` (12 values), with the evaluation-set size `n`. */
  const accuracy = (late: number[], n: number | null) => {
    const run = trainingRun({ val_accuracy: [...series(28, () => 0.8), ...late] });
    run.meta.valSamples = n;
    return run;
  };
  /** 12 late values with `swings` of the 11 steps moving by `size` (the rest flat). */
  const late = (swings: number, size: number) => {
    const v = [0.8];
    for (let i = 1; i < 12; i++) v.push(i <= swings ? (v[i - 1] === 0.8 ? 0.8 + size : 0.8) : v[i - 1]!);
    return v;
  };

  it("needs the evaluation-set size", () => {
    expect(oscillation.detect(accuracy(late(11, 0.1), 10_000))).toHaveLength(1);
    expect(oscillation.detect(accuracy(late(11, 0.1), null))).toEqual([]);
  });

  it("counts swings of at least 0.03 on a large set, in at least 20 % of the late steps", () => {
    // 3 of 11 steps = 27 %, 2 of 11 = 18 %.
    const [f] = oscillation.detect(accuracy(late(3, 0.031), 1_000_000));
    expect(f!.evidence[0]).toMatchObject({ rule_id: "TH-07", artifact: "training_artifacts.metrics:val/accuracy", threshold: 0.2, n_points: 12, window: [28, 39] });
    expect(Number(f!.evidence[0]!.observed)).toBeCloseTo(3 / 11, 5);
    expect(f!.evidence[0]!.text).toContain("swings by ≥ 0.03 in 27.27 % of the last 12 evaluations");
    expect(oscillation.detect(accuracy(late(2, 0.031), 1_000_000))).toEqual([]);
    expect(oscillation.detect(accuracy(late(3, 0.029), 1_000_000))).toEqual([]);
  });

  it("raises the swing to 3√2 SE on a small evaluation set", () => {
    // 100 examples: the late mean 0.85 (swings of 0.1) gives 3√2 · 0.0357 = 0.15; 0.9 (swings of 0.2) gives 0.127.
    expect(oscillation.detect(accuracy(late(11, 0.1), 100))).toEqual([]);
    const [f] = oscillation.detect(accuracy(late(11, 0.2), 100));
    expect(f!.evidence[0]!.text).toContain("swings by ≥ 0.1273 in 100 % of the last 12 evaluations (3 SE of a difference on 100 examples = 0.1273)");
    expect(Number(f!.evidence[0]!.noise_estimate)).toBeCloseTo(0.03, 5);
  });

  it("needs 10 evaluations", () => {
    const short = trainingRun({ val_accuracy: [0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 0.9, 0.8, 0.9] });
    short.meta.valSamples = 1_000_000;
    expect(oscillation.detect(short)).toEqual([]);
  });
});
