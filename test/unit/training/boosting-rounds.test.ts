import { describe, expect, it } from "vitest";
import { boostingEvidence, isBoostingRun } from "../../../nodes/training/boosting-run.js";
import { detectTrainingFindings } from "../../../nodes/training/detect.js";
import { boostingNoEarlyStopping, boostingOverfitting } from "../../../nodes/training/detectors/boosting-rounds.js";
import { overfitting } from "../../../nodes/training/detectors/overfitting.js";
import { Prng } from "../../support/prng.js";
import { series, trainingRun } from "../../support/training-run.js";

const XGB = { objective: "binary:logistic", max_depth: 6, eta: 0.3 };

/**
 * A validation log-loss per round that falls linearly to `best` at round `bestAt`, then changes linearly to
 * `best·(1 + rise)` at the last round (noise-free, so σ̂ = 0 and the 2 % floor is the threshold).
 */
function rounds(n: number, bestAt: number, rise: number, best = 0.4): number[] {
  return series(n, (i) => (i <= bestAt ? 0.69 - ((0.69 - best) * i) / bestAt : best * (1 + (rise * (i - bestAt)) / (n - 1 - bestAt))));
}
const train = (n: number) => series(n, (i) => 0.69 * Math.exp(-i / 15));
const run = (val: number[], params: Record<string, unknown> = XGB) => trainingRun({ val_loss: val, train_loss: train(val.length) }, { params });

describe("boosting-run: a tree ensemble recognized from what its library left behind", () => {
  it("reads the autolog tag, an objective, two tree params or a boosting metric name", () => {
    const loss = { val_loss: [0.6, 0.5, 0.4] };
    expect(boostingEvidence(trainingRun(loss, { params: { "mlflow.autologging": "lightgbm" } }))).toBe("autolog tag");
    expect(boostingEvidence(trainingRun(loss, { params: { objective: "multi:softprob" } }))).toBe("objective");
    expect(boostingEvidence(trainingRun(loss, { params: { num_leaves: 31, min_data_in_leaf: 20 } }))).toBe("tree params");
    expect(boostingEvidence(trainingRun({ "validation_1-logloss": [0.6, 0.5, 0.4] }))).toBe("metric names");
  });

  it("does not take one tree-like param, a network's objective-free params or plain loss names for boosting", () => {
    expect(isBoostingRun(trainingRun({ val_loss: [0.6, 0.5] }, { params: { max_depth: 4, lr: 0.001 } }))).toBe(false);
    expect(isBoostingRun(trainingRun({ val_loss: [0.6, 0.5], train_loss: [0.7, 0.6] }, { params: { optimizer: "adam", epochs: 30 } }))).toBe(false);
  });
});

describe("training.boosting_overfitting", () => {
  it("fires on a validation loss 3 % above its best, 10 rounds after it (just inside both thresholds)", () => {
    const [f] = boostingOverfitting.detect(run(rounds(40, 29, 0.04)));
    expect(f).toMatchObject({ id: "training.boosting_overfitting", severity: "medium" });
    expect(f!.recommendation!.action).toMatch(/early_stopping_rounds/);
    expect(f!.recommendation!.action).toMatch(/max_depth/);
    expect(f!.recommendation!.action).not.toMatch(/dropout|decay the learning rate/i);
  });

  it("is silent 9 rounds after the best (far-before-the-last threshold: max(10, 10 % of the rounds))", () => {
    expect(boostingOverfitting.detect(run(rounds(40, 30, 0.04)))).toEqual([]);
  });

  it("is silent when the end is less than 2 % above the best", () => {
    // Mean of the last 3 rounds of a rise to 1.5 % at the last one: ~1.4 % above the best.
    expect(boostingOverfitting.detect(run(rounds(60, 20, 0.015)))).toEqual([]);
    expect(boostingOverfitting.detect(run(rounds(60, 20, 0.03)))).toHaveLength(1);
  });

  it("needs 20 rounds", () => {
    expect(boostingOverfitting.detect(run(rounds(19, 4, 0.3)))).toEqual([]);
    expect(boostingOverfitting.detect(run(rounds(20, 4, 0.3)))).toHaveLength(1);
  });

  it("is high when the final model is more than 5 % worse and nothing stopped it; medium with early stopping", () => {
    expect(boostingOverfitting.detect(run(rounds(100, 20, 0.3)))[0]!.severity).toBe("high");
    expect(boostingOverfitting.detect(run(rounds(100, 20, 0.3), { ...XGB, early_stopping_rounds: 50 }))[0]!.severity).toBe("medium");
  });

  it("leaves a run that early stopping ended within its patience alone", () => {
    expect(boostingOverfitting.detect(run(rounds(50, 29, 0.05), { ...XGB, early_stopping_rounds: 20 }))).toEqual([]);
    expect(boostingOverfitting.detect(run(rounds(50, 28, 0.05), { ...XGB, early_stopping_rounds: 20 }))).toHaveLength(1);
  });

  it("reads LightGBM's only validation set, named valid_1 beside training, as the one to stop on", () => {
    const val = rounds(60, 20, 0.3);
    const lgb = trainingRun({ "training-multi_logloss": train(60), "valid_1-multi_logloss": val });
    expect(boostingOverfitting.detect(lgb)[0]).toMatchObject({ id: "training.boosting_overfitting", severity: "high" });
  });

  it("is silent on a noisy healthy boosting run still improving at the end", () => {
    const rng = new Prng(5);
    const val = series(200, (i) => 0.3 + 0.39 * Math.exp(-i / 40) + 0.002 * rng.normal());
    expect(detectTrainingFindings(run(val)).filter((f) => f.severity === "high" || f.severity === "critical")).toEqual([]);
    expect(boostingOverfitting.detect(run(val))).toEqual([]);
  });

  it("replaces the network detectors on a boosting run (no dropout advice), which still judge a network's run", () => {
    const val = rounds(100, 20, 0.3);
    const ids = detectTrainingFindings(run(val)).map((f) => f.id);
    expect(ids).toContain("training.boosting_overfitting");
    expect(ids).not.toContain("training.overfitting");
    expect(ids).not.toContain("training.generalization_gap");
    const network = run(val, { optimizer: "adam" });
    expect(boostingOverfitting.detect(network)).toEqual([]);
    expect(overfitting.detect(network)).toHaveLength(1);
  });
});

describe("training.boosting_no_early_stopping", () => {
  const flatTail = (n: number, bestAt: number) => series(n, (i) => (i <= bestAt ? 0.69 - (0.29 * i) / bestAt : 0.4 * (1 + 0.001 * ((i - bestAt) % 2))));

  it("is low when ≥ max(10, 20 %) of the rounds follow the best and no early stopping was set", () => {
    expect(boostingNoEarlyStopping.detect(run(flatTail(100, 79)))[0]).toMatchObject({ id: "training.boosting_no_early_stopping", severity: "low" });
    expect(boostingNoEarlyStopping.detect(run(flatTail(100, 80)))).toEqual([]);
  });

  it("is silent with early_stopping_rounds set, and when the rise is boosting_overfitting's", () => {
    expect(boostingNoEarlyStopping.detect(run(flatTail(100, 50), { ...XGB, early_stopping_rounds: 10 }))).toEqual([]);
    expect(boostingNoEarlyStopping.detect(run(rounds(100, 20, 0.3)))).toEqual([]);
  });
});
