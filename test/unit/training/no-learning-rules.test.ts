import { describe, expect, it } from "vitest";
import { noLearning } from "../../../nodes/training/detectors/no-learning.js";
import { series, trainingRun } from "../../support/training-run.js";

/**
 * TH-04's rules at their edges: a < 1 % relative improvement from the first to the last window without diverging,
 * or a loss within 5 % of ln K at both ends.
 */

/** A loss falling linearly from 2 by `relative` × 2 over 40 points (windows of 3: the means differ by 37/39 of it). */
const falling = (relative: number, n = 40) => series(n, (i) => 2 * (1 - (relative * i) / (n - 1)));

describe("TH-04 no_learning", () => {
  it("fires below a 1 % improvement of the window means, not at 1.1 %", () => {
    // Window means differ by 37/39 of the total fall: 1.05 % total is 0.996 %, 1.1 % total is 1.04 %.
    const [f] = noLearning.detect(trainingRun({ loss: falling(0.0105) }));
    expect(f).toMatchObject({ id: "training.no_learning", severity: "high", title: "The model is not learning" });
    const e = f!.evidence[0]!;
    expect(e).toMatchObject({ rule_id: "TH-04", artifact: "training_artifacts.metrics:train/loss", threshold: 0.01, n_points: 40, window: [0, 39] });
    expect(Number(e.observed)).toBeCloseTo((0.0105 * 37) / 39, 5);
    expect(e.values).toMatchObject({ first: expect.closeTo(2 * (1 - 0.0105 / 39), 5), chance_loss: null });
    expect(e.text).toMatch(/^Mean of the first 3 points 1\.99\d*, of the last 3 1\.9\d*: relative improvement 0\.99\d* % \(threshold 1 %\)/);
    expect(f!.description).toMatch(/^train\/loss went from 1\.99\d* to 1\.9\d* \(0\.99\d* % improvement\): the model is not learning/);
    expect(noLearning.detect(trainingRun({ loss: falling(0.011) }))).toEqual([]);
  });

  it("is more confident the flatter the loss", () => {
    const flat = noLearning.detect(trainingRun({ loss: falling(0) }))[0]!;
    const almost = noLearning.detect(trainingRun({ loss: falling(0.009) }))[0]!;
    expect(flat.confidence).toBeGreaterThan(almost.confidence);
  });

  it("counts a loss that rises without diverging as not learning, and leaves a divergence to TH-02", () => {
    expect(noLearning.detect(trainingRun({ loss: falling(-0.01) }))).toHaveLength(1);
    const diverging = series(40, (i) => (i < 30 ? 2 : 2 + (i - 29) * 0.2));
    expect(noLearning.detect(trainingRun({ loss: diverging }))).toEqual([]);
  });

  it("reads the validation loss without a training loss, and needs 6 points", () => {
    expect(noLearning.detect(trainingRun({ val_loss: series(6, () => 2) }))[0]!.evidence[0]!.artifact).toBe("training_artifacts.metrics:val/loss");
    expect(noLearning.detect(trainingRun({ val_loss: series(5, () => 2) }))).toEqual([]);
  });

  it("fires for a loss that learned a little but stays within 5 % of ln K at both ends", () => {
    const lnK = Math.log(10);
    const atChance = (from: number, to: number) => trainingRun({ loss: series(40, (i) => lnK * (from + ((to - from) * i) / 39)) }, { params: { num_classes: 10 } });
    const [f] = noLearning.detect(atChance(1.04, 0.96));
    expect(f!.evidence[0]!.values).toMatchObject({ chance_loss: 2.30259 });
    expect(f!.description).toContain("staying at the chance-level loss ln K = 2.303");
    expect(noLearning.detect(atChance(1.06, 0.96))).toEqual([]);
    expect(noLearning.detect(atChance(1.04, 0.94))).toEqual([]);
    expect(noLearning.detect(trainingRun({ loss: series(40, (i) => lnK * (1.04 - (0.08 * i) / 39)) }))).toEqual([]);
  });
});
