import { describe, expect, it } from "vitest";
import { generalizationGap } from "../../../nodes/training/detectors/generalization-gap.js";
import { series, trainingRun } from "../../support/training-run.js";

/**
 * TH-14's bands pinned at their edges (detectors-generalization.test.ts has the real runs). Flat curves have no
 * noise, so only the bands decide: the accuracy bands of AutoTrainer, the DeepFix loss-ratio bands and the
 * loss gap's materiality on the loss's own scale.
 */

const accuracy = (train: number, val: number) => trainingRun({ accuracy: series(40, () => train), val_accuracy: series(40, () => val) });
const severity = (run: ReturnType<typeof trainingRun>) => generalizationGap.detect(run).map((f) => f.severity);

describe("TH-14 accuracy gap: ≥ 0.10 (train ≤ 0.9) or ≥ 0.07 (train > 0.9), high at twice the band", () => {
  it("fires at a gap just over 0.10 with train ≤ 0.9, not just under", () => {
    expect(severity(accuracy(0.8, 0.6999))).toEqual(["medium"]);
    expect(severity(accuracy(0.8, 0.7001))).toEqual([]);
  });

  it("uses the 0.07 band only above a train accuracy of 0.9 (0.9 itself keeps 0.10)", () => {
    expect(severity(accuracy(0.9, 0.82))).toEqual([]);
    expect(severity(accuracy(0.9001, 0.82))).toEqual(["medium"]);
    expect(severity(accuracy(0.95, 0.8799))).toEqual(["medium"]);
    expect(severity(accuracy(0.95, 0.8801))).toEqual([]);
  });

  it("is high from twice the band on", () => {
    expect(severity(accuracy(0.8, 0.5999))).toEqual(["high"]);
    expect(severity(accuracy(0.8, 0.6001))).toEqual(["medium"]);
    expect(severity(accuracy(0.95, 0.8099))).toEqual(["high"]);
    expect(severity(accuracy(0.95, 0.8101))).toEqual(["medium"]);
  });

  it("reports the finals, the gap and the band in its evidence", () => {
    const [f] = generalizationGap.detect(accuracy(0.95, 0.8));
    const e = f!.evidence[0]!;
    expect(e).toMatchObject({ rule_id: "TH-14", artifact: "training_artifacts.metrics:val/accuracy", threshold: 0.07, n_points: 40 });
    expect(e.observed).toBeCloseTo(0.15, 10);
    expect(e.values).toMatchObject({ metric: "accuracy", train_final: 0.95, val_final: 0.8 });
    expect(e.values).not.toHaveProperty("absolute_gap");
    expect(e.text).toContain("gap 0.15 against a band of 0.07 (high at 0.14)");
    expect(f!.description).toContain("0.95 against 0.8");
    expect(f!.description).toContain("0.15 accuracy gap");
  });

  it("needs the gap above 3 standard errors of the finals: a noisy validation accuracy with the same gap is silent", () => {
    const noisy = trainingRun({ accuracy: series(40, () => 0.8), val_accuracy: series(40, (i) => 0.68 + (i % 2 ? 0.06 : -0.06)) });
    expect(generalizationGap.detect(noisy)).toEqual([]);
  });
});

/**
 * A loss-only run of 400 points: the train loss starts at `initial` and is `train` from the second point on, the
 * validation loss is flat at `val` (the single drop leaves a noise of about 0.007, three standard errors 0.005).
 */
const loss = (train: number, val: number, initial = train, params: Record<string, unknown> = {}) =>
  trainingRun({ loss: series(400, (i) => (i === 0 ? initial : train)), val_loss: series(400, () => val) }, { params });

describe("TH-14 loss gap: (val − train)/train > 0.15 medium, > 0.3 high, and material on the loss's scale", () => {
  it("fires just above a 15 % ratio, and is high just above 30 %", () => {
    expect(severity(loss(1, 1.16))).toEqual(["medium"]);
    expect(severity(loss(1, 1.14))).toEqual([]);
    expect(severity(loss(1, 1.31))).toEqual(["high"]);
    expect(severity(loss(1, 1.29))).toEqual(["medium"]);
  });

  it("needs the absolute gap ≥ 5 % of the initial loss for medium and ≥ 10 % for high", () => {
    // Initial loss 4: material from 0.2, high from 0.4.
    expect(severity(loss(1, 1.19, 4))).toEqual([]);
    expect(severity(loss(1, 1.21, 4))).toEqual(["medium"]);
    expect(severity(loss(1, 1.39, 4))).toEqual(["medium"]);
    expect(severity(loss(1, 1.41, 4))).toEqual(["high"]);
  });

  it("judges against ln K when the run states K and ln K is below the initial loss, else the initial loss", () => {
    // Train 0.5, initial 4: without K the material gap is 0.2; with K = 10, 5 % of ln 10 = 0.115.
    expect(severity(loss(0.5, 0.62, 4))).toEqual([]);
    const [f] = generalizationGap.detect(loss(0.5, 0.62, 4, { num_classes: 10 }));
    expect(f).toMatchObject({ severity: "medium" });
    const e = f!.evidence[0]!;
    expect(e.values).toMatchObject({ metric: "loss", train_final: 0.5, val_final: 0.62, absolute_gap: 0.12, loss_scale: 2.30259 });
    expect(Number(e.values!.gap_share_of_scale)).toBeCloseTo(0.12 / Math.log(10), 5);
    expect(e).toMatchObject({ threshold: 0.15, artifact: "training_artifacts.metrics:val/loss" });
    expect(e.observed).toBeCloseTo(0.24, 10);
    expect(e.text).toContain("10-class chance-level loss ln K = 2.303");
    expect(e.text).toContain("gap 24 % against a band of 15 % (high at 30 %)");
    expect(e.text).toContain("material at ≥ 5 %, high needs ≥ 10 % too");
    expect(f!.description).toContain("24 % relative (0.12 absolute) loss gap");
    // ln 100 = 4.6 is above the initial loss 4: the initial loss is the scale.
    expect(severity(loss(0.5, 0.62, 4, { num_classes: 100 }))).toEqual([]);
    const [initial] = generalizationGap.detect(loss(0.5, 0.71, 4, { num_classes: 100 }));
    expect(initial!.evidence[0]!.values).toMatchObject({ loss_scale: 4 });
    expect(initial!.evidence[0]!.text).toContain("the initial train/loss 4 (");
  });

  it("needs a positive train loss and a positive initial loss", () => {
    expect(generalizationGap.detect(loss(0, 0.5))).toEqual([]);
    expect(generalizationGap.detect(loss(-1, 0.5))).toEqual([]);
    expect(generalizationGap.detect(loss(1, 1.5, 0))).toEqual([]);
  });
});

describe("TH-14 is not reported when the train loss rose since the best validation point", () => {
  /** Train falls from 3 to 1 over 20 points, stays, then climbs to `end` over the last 10; val bottoms at 1.5 and climbs to 2. */
  const rising = (end: number) =>
    trainingRun({
      loss: series(60, (i) => (i < 20 ? 3 - (2 * i) / 20 : i < 50 ? 1 : 1 + ((end - 1) * (i - 49)) / 10)),
      val_loss: series(60, (i) => (i < 20 ? 3.5 - (2 * i) / 20 : 1.5 + (0.5 * (i - 19)) / 40)),
    });

  it("is silent when the final train loss is > 2 % above its value at the best validation point, reported below", () => {
    expect(severity(rising(1))).toEqual(["high"]);
    expect(severity(rising(1.015))).toEqual(["high"]);
    expect(severity(rising(1.03))).toEqual([]);
  });
});
