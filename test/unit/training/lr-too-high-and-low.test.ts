import { describe, expect, it } from "vitest";
import { curve } from "../../../nodes/training/curves.js";
import { findDivergence } from "../../../nodes/training/detectors/divergence.js";
import { lrTooHigh } from "../../../nodes/training/detectors/lr-too-high.js";
import { lrTooLow } from "../../../nodes/training/detectors/lr-too-low.js";
import { Prng } from "../../support/prng.js";
import { series, trainingRun } from "../../support/training-run.js";

/**
 * TH-08 (instability within the first 10 % of the run, or a peak lr above the optimizer's typical maximum) and
 * TH-09 (a loss still falling in a straight line after < 10 % improvement, or under a tiny Adam lr) at their edges.
 */

const N = 101; // steps 0 … 100: the first 10 % end at step 10

describe("TH-08 lr_too_high", () => {
  const steady = () => series(N, (i) => 2 - 0.01 * i);

  it("is high for a non-finite loss by step 10 of 100, not at step 11", () => {
    const at = (step: number) => {
      const loss = steady();
      loss[step] = Number.NaN;
      return lrTooHigh.detect(trainingRun({ loss }));
    };
    const [f] = at(10);
    expect(f).toMatchObject({ id: "training.lr_too_high", severity: "high", title: "Learning rate too high" });
    expect(f!.evidence[0]).toMatchObject({ rule_id: "TH-08", artifact: "training_artifacts.metrics:train/loss", observed: 10, threshold: 10 });
    expect(f!.evidence[0]!.text).toBe("train/loss is non-finite already at step 10 (first 10 % of the run).");
    expect(f!.description).toBe("Training is unstable from the start (train/loss is non-finite already at step 10 (first 10 % of the run)): the learning rate is most likely too high for this model and batch size.");
    expect(at(11)).toEqual([]);
  });

  it("is high for two early spikes, not one that recovers", () => {
    const rng = new Prng(3);
    const spiky = (steps: number[]) => {
      const loss = series(400, (i) => (1 + 2 * Math.exp(-i / 80)) * Math.exp(0.01 * rng.normal()));
      for (const s of steps) loss[s] = loss[s]! * 3;
      return lrTooHigh.detect(trainingRun({ loss }));
    };
    const [f] = spiky([20, 30]);
    expect(f!.evidence[0]).toMatchObject({ observed: 2 });
    expect(f!.evidence[0]!.text).toContain("spikes at steps 20, 30, within the first 10 % of the run");
    expect(spiky([20])).toEqual([]);
    expect(spiky([20, 60])).toEqual([]);
  });

  it("is high when the divergence minimum falls within the first 10 %", () => {
    const early = series(N, (i) => (i <= 8 ? 2 - 0.1 * i : 1.2 + 0.02 * (i - 8)));
    const [f] = lrTooHigh.detect(trainingRun({ loss: early }));
    // The smoothed minimum (window 6) sits at step 10, the last of the first 10 %.
    expect(f!.evidence[0]).toMatchObject({ observed: 10, threshold: 10 });
    expect(f!.evidence[0]!.text).toBe("train/loss bottoms out at step 10 (1.257) and climbs to 2.99: it diverges from the first 10 % of the run.");
    const shifted = series(N, (i) => (i <= 9 ? 2 - 0.1 * i : 1.1 + 0.02 * (i - 9)));
    expect(findDivergence(curve(trainingRun({ loss: shifted }), "train", "loss")!)!.minIndex).toBe(11);
    expect(lrTooHigh.detect(trainingRun({ loss: shifted }))).toEqual([]);
    const late = series(N, (i) => (i <= 40 ? 2 - 0.02 * i : 1.2 + 0.04 * (i - 40)));
    expect(lrTooHigh.detect(trainingRun({ loss: late }))).toEqual([]);
  });

  it("is medium for an Adam peak above 1e-2 or an SGD peak above 1 alone, quiet at the maximum or without an optimizer", () => {
    const run = (lr: number, optimizer?: string) => trainingRun({ loss: series(30, (i) => 2 - 0.03 * i), lr: series(30, () => lr) }, { params: optimizer ? { optimizer } : {} });
    const [f] = lrTooHigh.detect(run(0.011, "adam"));
    expect(f).toMatchObject({ severity: "medium" });
    expect(f!.evidence[0]).toMatchObject({ artifact: "training_artifacts.metrics:lr", observed: 0.011, threshold: 0.01 });
    expect(f!.evidence[0]!.text).toBe("Peak learning rate 0.011 at step 0 is above the typical maximum 0.01 for Adam-family optimizers.");
    expect(f!.description).toContain("The peak learning rate 0.011 is above the usual range");
    expect(lrTooHigh.detect(run(0.01, "adam"))).toEqual([]);
    expect(lrTooHigh.detect(run(1.1, "sgd"))[0]!.evidence[0]!.text).toContain("typical maximum 1 for SGD");
    expect(lrTooHigh.detect(run(1, "sgd"))).toEqual([]);
    expect(lrTooHigh.detect(run(5))).toEqual([]);
  });

  it("reads the peak from the params without an lr series, and is more confident when both readings agree", () => {
    const [p] = lrTooHigh.detect(trainingRun({ loss: series(30, (i) => 2 - 0.03 * i) }, { params: { optimizer: "adam", learning_rate: 0.05 } }));
    expect(p!.evidence[0]).toMatchObject({ artifact: "training_artifacts.params", observed: 0.05 });
    expect(p!.evidence[0]!.text).not.toContain("at step");
    const loss = steady();
    loss[5] = Number.NaN;
    const both = lrTooHigh.detect(trainingRun({ loss }, { params: { optimizer: "adam", learning_rate: 0.05 } }))[0]!;
    const alone = lrTooHigh.detect(trainingRun({ loss }))[0]!;
    expect(both.evidence).toHaveLength(2);
    expect(both.confidence).toBeGreaterThan(alone.confidence);
    expect(alone.confidence).toBeGreaterThan(p!.confidence);
  });
});

describe("TH-09 lr_too_low", () => {
  /** A loss falling in a straight line by `total` (relative) over 40 points, with a slight noise. */
  const straight = (total: number, params: Record<string, unknown> = {}, lr?: number) => {
    const rng = new Prng(4);
    return trainingRun({ loss: series(40, (i) => 2 * (1 - (total * i) / 39) + 0.0005 * rng.normal()), ...(lr ? { lr: series(40, () => lr) } : {}) }, { params });
  };

  it("is medium for a straight fall that improved less than 10 %, not 10 %", () => {
    const [f] = lrTooLow.detect(straight(0.09));
    expect(f).toMatchObject({ id: "training.lr_too_low", severity: "medium", title: "Learning rate too low" });
    const e = f!.evidence[0]!;
    expect(e).toMatchObject({ rule_id: "TH-09", artifact: "training_artifacts.metrics:train/loss", threshold: 0.1, n_points: 40, window: [20, 39] });
    expect(Number(e.observed)).toBeLessThan(0.1);
    expect(Number(e.values!.slope_ratio)).toBeCloseTo(1, 1);
    expect(Number(e.values!.late_t)).toBeLessThan(-3);
    expect(e.values).toMatchObject({ peak_lr: null });
    expect(lrTooLow.detect(straight(0.11))).toEqual([]);
  });

  it("needs a 1 % improvement at least (less is TH-04's), and 10 points", () => {
    expect(lrTooLow.detect(straight(0.005))).toEqual([]);
    const short = trainingRun({ loss: series(9, (i) => 2 - 0.01 * i) });
    expect(lrTooLow.detect(short)).toEqual([]);
  });

  it("fires for a larger improvement under an Adam peak lr below 1e-5, naming it", () => {
    const [f] = lrTooLow.detect(straight(0.3, { optimizer: "adam" }, 9e-6));
    expect(f!.description).toContain("with a peak learning rate of 9e-6");
    expect(f!.evidence[0]!.values).toMatchObject({ peak_lr: 9e-6 });
    expect(f!.evidence[0]!.text).toContain("; peak lr 9e-6");
    expect(lrTooLow.detect(straight(0.3, { optimizer: "adam" }, 1e-5))).toEqual([]);
    expect(lrTooLow.detect(straight(0.3, { optimizer: "sgd" }, 9e-6))).toEqual([]);
  });

  it("needs the second half to fall at least half as fast as the first (no curvature)", () => {
    const bent = (ratio: number) => series(40, (i) => (i < 20 ? 2 - 0.004 * i : 2 - 0.004 * 20 - 0.004 * ratio * (i - 20)));
    expect(lrTooLow.detect(trainingRun({ loss: bent(0.6) }))).toHaveLength(1);
    expect(lrTooLow.detect(trainingRun({ loss: bent(0.4) }))).toEqual([]);
  });
});
