import { describe, expect, it } from "vitest";
import { curveOf } from "../../../nodes/training/curves.js";
import { peakLearningRate } from "../../../nodes/training/learning-rate.js";
import { lossProgress } from "../../../nodes/training/progress.js";
import { series, trainingRun } from "../../support/training-run.js";

/** A loss curve of these values at steps 0 … n − 1, with the given σ̂. */
const lossCurve = (values: number[], noise: number) => ({
  steps: Float64Array.from(values, (_, i) => i),
  values: Float64Array.from(values),
  noise,
});

/** The fine curve of a train loss logged at steps 0 … n − 1 (σ̂ of its own values). */
const trainLoss = (values: number[]) => curveOf(trainingRun({ train_loss: values }).series.get("train/loss")!, "fine");

describe("lossProgress: first window's mean against the last one's", () => {
  it("measures the improvement, relative to the first window and in standard errors of the difference", () => {
    // n = 20: windows of 3 points.
    const p = lossProgress(lossCurve([4, 5, 6, ...series(14, () => 9), 1, 2, 3], 0.5))!;
    expect(p.window).toBe(3);
    expect(p.first).toBe(5);
    expect(p.last).toBe(2);
    expect(p.improvement).toBe(3);
    expect(p.relative).toBeCloseTo(0.6, 12);
    expect(p.z).toBeCloseTo(3 / (0.5 * Math.sqrt(2 / 3)), 9);
  });

  it("uses windows of max(3, ⌈5 %⌉) points and needs 6 points", () => {
    expect(lossProgress(lossCurve(series(5, (i) => 5 - i), 1))).toBeNull();
    expect(lossProgress(lossCurve(series(6, (i) => 6 - i), 1))).toMatchObject({ window: 3, first: 5, last: 2, improvement: 3 });
    expect(lossProgress(lossCurve(series(60, (i) => i), 1))!.window).toBe(3);
    expect(lossProgress(lossCurve(series(61, (i) => i), 1))!.window).toBe(4);
    expect(lossProgress(lossCurve(series(1000, (i) => i), 1))!.window).toBe(50);
  });

  it("relative: against |first|, and 0 when the first window's mean is 0", () => {
    expect(lossProgress(lossCurve([-3, -2, -1, -9, -9, -9, -4, -3, -2], 1))!.relative).toBeCloseTo(0.5, 12);
    const zeroFirst = lossProgress(lossCurve([-1, 0, 1, 5, 5, 5, 3, 4, 5], 1))!;
    expect(zeroFirst.improvement).toBe(-4);
    expect(zeroFirst.relative).toBe(0);
  });

  it("z without noise: +∞ for a fall, −∞ for a rise, 0 when flat; 0 for no change with noise", () => {
    expect(lossProgress(trainLoss(series(30, (i) => 100 - i)))!.z).toBe(Number.POSITIVE_INFINITY);
    expect(lossProgress(trainLoss(series(30, (i) => 100 + i)))!.z).toBe(Number.NEGATIVE_INFINITY);
    expect(lossProgress(trainLoss(series(30, () => 2)))!.z).toBe(0);
    expect(lossProgress(lossCurve([1, 2, 3, 7, 0, 9, 3, 2, 1], 0.4))!.z).toBe(0);
  });
});

describe("peakLearningRate", () => {
  it("is the largest logged lr and its step, before any lr in the params", () => {
    const run = trainingRun({ lr: [[0, 0.001], [10, 0.01], [20, 0.01], [30, 0.005]], train_loss: [1, 2] }, { params: { learning_rate: "0.5" } });
    const peak = peakLearningRate(run);
    expect(peak).toEqual({ value: 0.01, step: 10, source: "series" });
    expect(peakLearningRate(run)).toBe(peak);
  });

  it("without an lr series, the first positive one of learning_rate, lr, max_lr, peak_lr, base_lr in the params", () => {
    for (const name of ["learning_rate", "lr", "max_lr", "peak_lr", "base_lr"]) {
      const run = trainingRun({ train_loss: [1, 2] }, { params: { [name]: "3e-4" } });
      expect(peakLearningRate(run), name).toEqual({ value: 3e-4, step: null, source: "params" });
      expect(peakLearningRate(run)).toBe(peakLearningRate(run));
    }
    expect(peakLearningRate(trainingRun({ train_loss: [1, 2] }, { params: { base_lr: "0.1", learning_rate: "0.02" } }))?.value).toBe(0.02);
  });

  it("is null for a zero, negative or missing lr", () => {
    for (const params of [{ learning_rate: "0" }, { lr: "-0.001" }, { optimizer: "adam" }, { lr: "auto" }]) {
      expect(peakLearningRate(trainingRun({ train_loss: [1, 2] }, { params })), JSON.stringify(params)).toBeNull();
    }
    expect(peakLearningRate(trainingRun({ train_loss: [1, 2] }, { params: { lr: "1e-12" } }))?.value).toBe(1e-12);
  });
});
