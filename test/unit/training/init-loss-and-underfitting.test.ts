import { describe, expect, it } from "vitest";
import { initLossSanity } from "../../../nodes/training/detectors/init-loss.js";
import { underfitting } from "../../../nodes/training/detectors/underfitting.js";
import { series, trainingRun } from "../../support/training-run.js";

/**
 * The two rules read against ln K at their edges: TH-05's first loss outside 0.5–3 × ln K (the low side only for a
 * per-batch loss logged at the start), and TH-16's train accuracy under chance + 5 pp or a train loss that fell by
 * less than 20 % of ln K.
 */

/** Points as [step, value] pairs for f(i), i = 0 … n − 1. */
const points = (n: number, f: (i: number) => [number, number]) => Array.from({ length: n }, (_, i) => f(i));

const lnK = Math.log(10);
const K = { num_classes: 10 };

describe("TH-05 init_loss_sanity", () => {
  /** A per-batch loss (200 points from step 0) starting at `first`, falling towards 0.3. */
  const perBatch = (first: number, n = 200) => trainingRun({ loss: series(n, (i) => (i === 0 ? first : 0.3 + 0.2 * Math.exp(-i / 50))) }, { params: K });

  it("is medium above 3 ln K and quiet at or just under it", () => {
    const [f] = initLossSanity.detect(perBatch(3 * lnK + 0.01));
    expect(f).toMatchObject({ id: "training.init_loss_sanity", severity: "medium", title: "Initial loss far above chance level", recommendation: { category: "model" } });
    const e = f!.evidence[0]!;
    expect(e).toMatchObject({ rule_id: "TH-05", artifact: "training_artifacts.metrics:train/loss", window: [0, 0], n_points: 1, threshold: 6.90776 });
    expect(e.values).toMatchObject({ num_classes: 10, chance_loss: 2.30259 });
    expect(Number(e.values!.ratio)).toBeCloseTo(3 + 0.01 / lnK, 5);
    expect(e.text).toBe("First train/loss 6.918 at step 0; ln 10 = 2.303; allowed range 1.151–6.908.");
    expect(f!.description).toContain("is 6.918 at step 0, 3.004× the 10-class chance loss ln K = 2.303: the output layer starts over-confident");
    expect(initLossSanity.detect(perBatch(3 * lnK - 0.01))).toEqual([]);
  });

  it("is medium below 0.5 ln K for a per-batch loss from the start, quiet just above", () => {
    const [f] = initLossSanity.detect(perBatch(0.5 * lnK - 0.01));
    expect(f).toMatchObject({ title: "Initial loss suspiciously below chance level" });
    expect(f!.evidence[0]!.threshold).toBe(1.15129);
    expect(f!.description).toContain("the model knows the answer before training");
    expect(initLossSanity.detect(perBatch(0.5 * lnK + 0.01))).toEqual([]);
  });

  it("is more confident the further the first loss is from the allowed range", () => {
    expect(initLossSanity.detect(perBatch(10 * lnK))[0]!.confidence).toBeGreaterThan(initLossSanity.detect(perBatch(3.2 * lnK))[0]!.confidence);
    expect(initLossSanity.detect(perBatch(0.1 * lnK))[0]!.confidence).toBeGreaterThan(initLossSanity.detect(perBatch(0.45 * lnK))[0]!.confidence);
  });

  it("takes 100 points without epochs as per batch, 99 as not", () => {
    expect(initLossSanity.detect(perBatch(0.3, 100))).toHaveLength(1);
    expect(initLossSanity.detect(perBatch(0.3, 99))).toEqual([]);
  });

  it("needs the low first loss logged within the first 1 % of the run (or by step 1)", () => {
    const late = (step: number) =>
      trainingRun({ loss: points(200, (i) => [step + i, 0.3 + 0.2 * Math.exp(-i / 50)]), lr: points(1001, (i) => [i, 1e-3]) }, { params: K });
    // The run spans steps 0–1000: 1 % is step 10.
    expect(initLossSanity.detect(late(10))).toHaveLength(1);
    expect(initLossSanity.detect(late(11))).toEqual([]);
    // The high side is judged wherever the first loss was logged.
    const highLate = trainingRun({ loss: points(50, (i) => [500 + i, 30 - i / 10]), lr: points(1000, (i) => [i, 1e-3]) }, { params: K });
    expect(initLossSanity.detect(highLate)).toHaveLength(1);
  });

  it("starts from the first finite loss", () => {
    const run = trainingRun({ loss: series(200, (i) => (i < 2 ? Number.NaN : i === 2 ? 30 : 1)) }, { params: K });
    expect(initLossSanity.detect(run)[0]!.evidence[0]!.window).toEqual([2, 2]);
  });
});

describe("TH-16 underfitting", () => {
  /** Train and val accuracy flat at `train` and `val` over 30 evaluations. */
  const accuracy = (train: number, val: number | null, params: Record<string, unknown> = K) =>
    trainingRun({ accuracy: series(30, () => train), ...(val === null ? {} : { val_accuracy: series(30, () => val) }) }, { params });

  it("is high for a train accuracy below chance + 5 pp, quiet at 5.1 pp", () => {
    const [f] = underfitting.detect(accuracy(0.149, 0.14));
    expect(f).toMatchObject({ id: "training.underfitting", severity: "high", title: "The model underfits its training data" });
    expect(f!.evidence[0]).toMatchObject({ rule_id: "TH-16", artifact: "training_artifacts.metrics:train/accuracy", observed: 0.149, threshold: 0.15, n_points: 30 });
    expect(f!.evidence[0]!.text).toBe("Final train/accuracy 0.149 against a chance level of 0.1 (+0.05 margin).");
    expect(underfitting.detect(accuracy(0.151, 0.14))).toEqual([]);
  });

  it("reads chance as the stated majority share", () => {
    expect(underfitting.detect(accuracy(0.84, 0.83, { majority_share: 0.8 }))).toHaveLength(1);
    expect(underfitting.detect(accuracy(0.86, 0.85, { majority_share: 0.8 }))).toEqual([]);
    expect(underfitting.detect(accuracy(0.14, 0.14, {}))).toEqual([]);
  });

  it("needs the train/val gap small (< 0.05 without noise)", () => {
    expect(underfitting.detect(accuracy(0.12, 0.0701))).toHaveLength(1);
    expect(underfitting.detect(accuracy(0.12, 0.0699))).toEqual([]);
    expect(underfitting.detect(accuracy(0.12, null))).toHaveLength(1);
  });

  /** A train loss from ln K at step 0 falling by `drop` (30 points). */
  const lossFall = (drop: number, from = 0) => trainingRun({ loss: points(30, (i) => [from + i, lnK - (drop * i) / 29]), lr: points(41, (i) => [i, 1e-3]) }, { params: K });

  it("is high when the train loss fell by less than 20 % of ln K, quiet from 20 % on", () => {
    // The final value is the mean of the last 3 points: 28/29 of the drop.
    const [f] = underfitting.detect(lossFall(((0.2 * lnK) / 28) * 29 - 0.01));
    expect(f!.evidence[0]).toMatchObject({ artifact: "training_artifacts.metrics:train/loss", threshold: 0.460517, n_points: 30 });
    expect(f!.evidence[0]!.text).toContain("less than 0.2·ln 10 = 0.4605");
    expect(underfitting.detect(lossFall(((0.2 * lnK) / 28) * 29 + 0.01))).toEqual([]);
  });

  it("needs the loss logged from the first 5 % of the run, ending above 0.5 ln K, and K", () => {
    // The run spans steps 0–40: 5 % is step 2.
    expect(underfitting.detect(lossFall(0.1, 2))).toHaveLength(1);
    expect(underfitting.detect(lossFall(0.1, 3))).toEqual([]);
    const low = trainingRun({ loss: series(30, (i) => 0.5 * lnK + 0.1 - (0.2 * i) / 29) }, { params: K });
    expect(underfitting.detect(low)).toEqual([]);
    expect(underfitting.detect(trainingRun({ loss: series(30, () => lnK) }))).toEqual([]);
  });

  it("puts both readings in one finding, more confident than one", () => {
    const both = trainingRun({ accuracy: series(30, () => 0.1), loss: series(30, () => lnK) }, { params: K });
    const [f] = underfitting.detect(both);
    expect(f!.evidence).toHaveLength(2);
    expect(f!.confidence).toBeGreaterThan(underfitting.detect(accuracy(0.1, null))[0]!.confidence);
  });
});
