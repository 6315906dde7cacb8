import { describe, expect, it } from "vitest";
import { boostingNoEarlyStopping, boostingOverfitting, boostingRounds } from "../../../nodes/training/detectors/boosting-rounds.js";
import { Prng } from "../../support/prng.js";
import { series, trainingRun } from "../../support/training-run.js";

/**
 * What the boosting detectors report (boosting-rounds.test.ts has their thresholds): the rise against max(2 % of the
 * best, 3σ̂), the early-stopping evidence, the training-loss gap, and the wasted share of the no-early-stopping note.
 */

const XGB = { objective: "binary:logistic", max_depth: 6, eta: 0.3 };
/** Noise-free val loss falling linearly to 0.4 at round `bestAt`, then to 0.4·(1 + rise) at the last round. */
const rounds = (n: number, bestAt: number, rise: number) => series(n, (i) => (i <= bestAt ? 0.69 - (0.29 * i) / bestAt : 0.4 * (1 + (rise * (i - bestAt)) / (n - 1 - bestAt))));
const train = (n: number) => series(n, (i) => 0.69 * Math.exp(-i / 15));
const run = (val: number[], params: Record<string, unknown> = XGB, withTrain = true) =>
  trainingRun({ val_loss: val, ...(withTrain ? { train_loss: train(val.length) } : {}) }, { params });

describe("training.boosting_overfitting evidence", () => {
  it("reports the best round, the end, the rise and the 2 % floor of a noise-free curve", () => {
    const r = run(rounds(100, 20, 0.3));
    const found = boostingRounds(r)!;
    expect(found).toMatchObject({ bestIndex: 20, after: 79, earlyStopping: null });
    expect(found.best).toBeCloseTo(0.4, 10);
    expect(found.threshold).toBeCloseTo(0.008, 10);
    const [f] = boostingOverfitting.detect(r);
    expect(f!.severity).toBe("high");
    const [e, stopping, gap] = f!.evidence;
    expect(e).toMatchObject({ rule_id: "TH-13b", artifact: "training_artifacts.metrics:val/loss", window: [20, 99], threshold: 0.008, n_points: 100 });
    expect(e!.values).toMatchObject({ best_round_index: 20, rounds: 100, rounds_after_best: 79, best_val_loss: 0.4 });
    // The end is the mean of the last 5 rounds: 0.4 · (1 + 0.3 · 77/79).
    expect(Number(e!.values!.final_val_loss)).toBeCloseTo(0.4 * (1 + (0.3 * 77) / 79), 5);
    expect(Number(e!.observed)).toBeCloseTo(0.4 * ((0.3 * 77) / 79), 5);
    expect(Number(e!.values!.relative_worsening)).toBeCloseTo((0.3 * 77) / 79, 5);
    expect(e!.text).toBe("Best val/loss 0.4 at step 20 of 100 rounds; mean of the last rounds 0.517; rise 0.117 against max(2 % of the best, 3σ̂) = 0.008.");
    expect(stopping).toMatchObject({ rule_id: "TH-13b", artifact: "training_artifacts.params", observed: "absent", values: { early_stopping_rounds: null } });
    expect(stopping!.text).toBe("No early_stopping_rounds (or od_wait) in the run's parameters: every round was trained and is kept in the model.");
    expect(gap).toMatchObject({ rule_id: "TH-14", artifact: "training_artifacts.metrics:train/loss" });
    expect(gap!.values).toMatchObject({ train_loss_at_best: Number((0.69 * Math.exp(-20 / 15)).toPrecision(6)), final_val_loss: 0.52 });
    expect(Number(gap!.observed)).toBeCloseTo(0.52 - 0.69 * Math.exp(-99 / 15), 5);
    expect(f!.description).toContain("val/loss was best at step 20 (0.4) and rose to 0.517 over the last rounds (29.24 % worse), 79 rounds later, with no early stopping: the model keeps every round.");
  });

  it("says how many rounds ran past the early-stopping patience", () => {
    const [f] = boostingOverfitting.detect(run(rounds(100, 20, 0.3), { ...XGB, early_stopping_rounds: 50 }));
    expect(f!.evidence[1]).toMatchObject({ observed: 50, values: { early_stopping_rounds: 50 } });
    expect(f!.evidence[1]!.text).toBe("early_stopping_rounds = 50, yet 79 rounds ran after the best one.");
    expect(f!.description).not.toContain("with no early stopping");
  });

  it("leaves the gap out without a training loss of 20 rounds", () => {
    expect(boostingOverfitting.detect(run(rounds(100, 20, 0.3), XGB, false))[0]!.evidence).toHaveLength(2);
    const short = trainingRun({ val_loss: rounds(100, 20, 0.3), train_loss: series(19, (i) => 0.6 - 0.01 * i) }, { params: XGB });
    expect(boostingOverfitting.detect(short)[0]!.evidence).toHaveLength(2);
  });

  it("is high only past a 5 % worsening: 4 % is medium without early stopping", () => {
    expect(boostingOverfitting.detect(run(rounds(100, 20, 0.045)))[0]!.severity).toBe("medium");
    expect(boostingOverfitting.detect(run(rounds(100, 20, 0.06)))[0]!.severity).toBe("high");
  });

  it("raises the threshold to 3σ̂ on a noisy curve", () => {
    const rng = new Prng(12);
    const noisy = rounds(100, 20, 0.03).map((v) => v + 0.01 * rng.normal());
    const r = boostingRounds(run(noisy))!;
    expect(r.threshold).toBeCloseTo(3 * r.val.noise, 10);
    expect(r.threshold).toBeGreaterThan(0.02 * Math.abs(r.best));
  });

  it("stops on the lowest-numbered further evaluation set when no val/loss was logged", () => {
    const lgb = trainingRun({ "training-multi_logloss": train(60), "valid_2-multi_logloss": rounds(60, 20, 0.0), "valid_1-multi_logloss": rounds(60, 20, 0.3) });
    const r = boostingRounds(lgb);
    expect(r?.val.name).toMatch(/val_1\/loss/);
  });
});

describe("training.boosting_no_early_stopping evidence", () => {
  const flatTail = (n: number, bestAt: number) => series(n, (i) => (i <= bestAt ? 0.69 - (0.29 * i) / bestAt : 0.4 * (1 + 0.001 * ((i - bestAt) % 2))));

  it("reports the rounds after the best against max(10, ⌈20 %⌉)", () => {
    const [f] = boostingNoEarlyStopping.detect(run(flatTail(103, 60)));
    expect(f).toMatchObject({ severity: "low", title: "Boosting ran long past its best round without early stopping" });
    expect(f!.evidence[0]).toMatchObject({ rule_id: "TH-15b", observed: 42, threshold: 21, n_points: 103, window: [60, 102], values: { best_round_index: 60, rounds: 103 } });
    expect(f!.evidence[0]!.text).toBe("42 of 103 rounds after the best one (threshold max(10, 20 % of the rounds)).");
    expect(f!.evidence[1]).toMatchObject({ observed: "absent" });
    expect(f!.description).toBe("val/loss was best at step 60; the 42 rounds after it (40.78 % of the run) did not improve it, and no early_stopping_rounds was set.");
  });

  it("needs 10 rounds after the best on a short run", () => {
    expect(boostingNoEarlyStopping.detect(run(flatTail(30, 19)))).toHaveLength(1);
    expect(boostingNoEarlyStopping.detect(run(flatTail(30, 20)))).toEqual([]);
  });
});
