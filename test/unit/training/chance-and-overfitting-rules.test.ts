import { describe, expect, it } from "vitest";
import { classCount } from "../../../nodes/training/chance.js";
import { chanceLevel } from "../../../nodes/training/detectors/chance-level.js";
import { findOverfitting, overfitting } from "../../../nodes/training/detectors/overfitting.js";
import { Prng } from "../../support/prng.js";
import { series, trainingRun } from "../../support/training-run.js";

/**
 * What TH-13 and TH-04 decide beyond their thresholds (thresholds.test.ts pins those): overfitting's severity rule,
 * its train-loss and double-descent conditions, and chance level's evidence. Written against surviving mutants of
 * `npm run mutate` (docs/mutation.md).
 */

const N = 60;
/** Val loss falling from 2 to `floor` by evaluation 20, then rising by `rise` to the end, with noise of amplitude `noise`. */
function valLoss(floor: number, rise: number, noise: number, seed = 3): number[] {
  const rng = new Prng(seed);
  return series(N, (i) => (i < 20 ? 2 - ((2 - floor) * i) / 20 : floor + (rise * (i - 20)) / (N - 21)) + rng.uniform(-noise, noise));
}
const fallingTrain = series(N, (i) => 1.5 * Math.exp(-i / 15) + 0.05);

function finding(val: number[], params: Record<string, unknown> = {}, train: number[] = fallingTrain) {
  return overfitting.detect(trainingRun({ train_loss: train, val_loss: val }, { params }))[0];
}

describe("TH-13 overfitting: what makes it high", () => {
  it("is high exactly when the worsening is material (> 5 %), the rise > 2× its threshold and the best checkpoint is not kept", () => {
    const seen = { high: 0, medium: 0 };
    for (const floor of [0.2, 0.5, 1]) {
      for (const share of [0.02, 0.04, 0.06, 0.1, 0.3]) {
        for (const noise of [0.001, 0.02, 0.08]) {
          const f = finding(valLoss(floor, share * floor, noise));
          if (!f) continue;
          const e = f.evidence[0]!;
          const worse = Number(e.values!.relative_worsening);
          const expected = worse > 0.05 && Number(e.observed) > 2 * Number(e.threshold) ? "high" : "medium";
          expect(f.severity, `floor ${floor}, rise ${share}, noise ${noise}: worse ${worse}, rise ${e.observed} vs threshold ${e.threshold}`).toBe(expected);
          seen[f.severity as "high" | "medium"]++;
        }
      }
    }
    // Both sides of the rule were exercised, including medium for a material but noisy rise.
    expect(seen.high).toBeGreaterThan(3);
    expect(seen.medium).toBeGreaterThan(3);
  });

  it("a material rise well past the noise is medium when the best checkpoint was kept, high when the last one is kept", () => {
    const val = valLoss(0.5, 0.3, 0.001);
    expect(finding(val)?.severity).toBe("high");
    const kept = finding(val, { restore_best_weights: true });
    expect(kept).toMatchObject({ severity: "medium" });
    expect(kept!.evidence[0]!.values!.best_checkpoint_kept).toBe(true);
    expect(kept!.description).toContain("The best checkpoint was kept");
    const last = finding(val, { restore_best_weights: false });
    expect(last).toMatchObject({ severity: "high" });
    expect(last!.description).toContain("keeps the last checkpoint");
  });

  it("needs the train loss to keep falling: a flat or rising train loss is not overfitting", () => {
    const val = valLoss(0.5, 0.3, 0.001);
    const found = findOverfitting(trainingRun({ train_loss: fallingTrain, val_loss: val }));
    expect(found).not.toBeNull();
    expect(found!.trainAtEnd!).toBeLessThan(found!.trainAtBest!);
    const rng = new Prng(5);
    expect(finding(val, {}, series(N, () => 0.4 + rng.uniform(-0.01, 0.01)))).toBeUndefined();
    expect(finding(val, {}, series(N, (i) => 0.4 + 0.002 * i))).toBeUndefined();
    // Without a train loss at all the rise alone decides, and the confidence allows a benign reading.
    const alone = overfitting.detect(trainingRun({ val_loss: val }))[0];
    expect(alone).toBeDefined();
    expect(alone!.evidence[0]!.values!.train_loss_at_best).toBeNull();
    expect(alone!.confidence).toBeLessThan(finding(val)!.confidence);
  });

  it("stays quiet when the validation loss falls again at the end (double descent)", () => {
    const rise = valLoss(0.5, 0.3, 0.001);
    expect(finding(rise)).toBeDefined();
    const descent = rise.map((v, i) => (i >= N - 10 ? v - 0.04 * (i - (N - 11)) : v));
    expect(finding(descent)).toBeUndefined();
  });

  it("reports the rise's evidence: the window from the best to the last evaluation and the evaluations after the best", () => {
    const f = finding(valLoss(0.5, 0.3, 0.001))!;
    const e = f.evidence[0]!;
    const best = Number(e.values!.best_step);
    expect(e.window).toEqual([best, N - 1]);
    expect(e.text).toContain(`${N - 1 - best} evaluations after the best`);
    expect(Number(e.values!.final_val_loss)).toBeGreaterThan(Number(e.values!.best_val_loss));
    expect(Number(e.values!.relative_worsening)).toBeCloseTo(Number(e.observed) / Number(e.values!.best_val_loss), 3);
  });

  it("reports the train loss at the best and at the end when one is logged, and says so; nothing of it without one", () => {
    const val = valLoss(0.5, 0.3, 0.001);
    const o = findOverfitting(trainingRun({ train_loss: fallingTrain, val_loss: val }))!;
    const e = finding(val)!.evidence[0]!;
    expect(e.values!.train_loss_at_best).toBeCloseTo(o.trainAtBest!, 4);
    expect(e.values!.train_loss_at_end).toBeCloseTo(o.trainAtEnd!, 4);
    expect(finding(val)!.description).toMatch(/while train\/loss kept falling \([\d.]+ → [\d.]+\)/);
    const alone = overfitting.detect(trainingRun({ val_loss: val }))[0]!;
    expect(alone.evidence[0]!.values).toMatchObject({ train_loss_at_best: null, train_loss_at_end: null });
    expect(alone.description).not.toContain("kept falling");
  });
});

describe("TH-04 chance level: its evidence", () => {
  const K = 4;
  const ln = Math.log(K);
  const rng = new Prng(11);
  const flatAcc = series(40, () => 0.25 + rng.uniform(-0.01, 0.01));
  const flatLoss = series(40, () => ln + rng.uniform(-0.01, 0.01));

  it("puts the band's edge on the learning side of chance: above 1/K for accuracy, below ln K for the loss", () => {
    const f = chanceLevel.detect(trainingRun({ val_accuracy: flatAcc, val_loss: flatLoss }, { params: { num_classes: K } }))[0]!;
    expect(f.severity).toBe("high");
    const acc = f.evidence.find((e) => e.artifact.endsWith("val/accuracy"))!;
    const loss = f.evidence.find((e) => e.artifact.endsWith("val/loss"))!;
    expect(Number(acc.threshold)).toBeGreaterThan(0.25);
    expect(Number(loss.threshold)).toBeLessThan(ln);
    expect(acc.window).toEqual([0, 39]);
    expect(f.description).toContain("chance accuracy 0.25");
    expect(f.description).toContain("ln K");
  });

  it("says 'never left' only when every curve stayed at chance; one that learned and fell back makes it 'ended at'", () => {
    const never = chanceLevel.detect(trainingRun({ val_accuracy: flatAcc, val_loss: flatLoss }, { params: { num_classes: K } }))[0]!;
    expect(never.title).toBe("The model never left chance level");
    expect(never.evidence.every((e) => e.values!.never_left === true)).toBe(true);
    // Accuracy climbs to 0.7 and falls back to chance; the loss never leaves ln K.
    const learnedAcc = series(40, (i) => (i < 10 ? 0.25 + 0.045 * i : i < 20 ? 0.7 - 0.045 * (i - 10) : 0.25) + rng.uniform(-0.005, 0.005));
    const fell = chanceLevel.detect(trainingRun({ val_accuracy: learnedAcc, val_loss: flatLoss }, { params: { num_classes: K } }))[0]!;
    expect(fell.evidence.map((e) => e.values!.never_left).sort()).toEqual([false, true]);
    expect(fell.title).toBe("The model ended at chance level");
    expect(fell.description).toContain("whatever it learned early was lost");
  });
});

describe("TH-04 chance level: the bands", () => {
  const flat = (v: number) => series(40, () => v);
  const at = (metrics: Record<string, number[]>, params: Record<string, unknown>) => chanceLevel.detect(trainingRun(metrics, { params }))[0];

  it("takes the accuracy band from the evaluation size when it is known: 3 binomial standard errors, at least 0.03, at most 0.1", () => {
    // K = 2, 400 validation examples: SE = √(0.25 / 400) = 0.025, band 0.075.
    const k2 = { num_classes: 2, n_val: 400 };
    expect(at({ val_accuracy: flat(0.574) }, k2)?.evidence[0]!.threshold).toBeCloseTo(0.575, 6);
    expect(at({ val_accuracy: flat(0.576) }, k2)).toBeUndefined();
    // 100 examples: 3 SE = 0.15, capped at 0.1.
    expect(at({ val_accuracy: flat(0.599) }, { num_classes: 2, n_val: 100 })).toBeDefined();
    expect(at({ val_accuracy: flat(0.601) }, { num_classes: 2, n_val: 100 })).toBeUndefined();
    // 40 000 examples: 3 SE = 0.0075, raised to 0.03.
    expect(at({ val_accuracy: flat(0.529) }, { num_classes: 2, n_val: 40_000 })).toBeDefined();
    expect(at({ val_accuracy: flat(0.531) }, { num_classes: 2, n_val: 40_000 })).toBeUndefined();
  });

  it("takes the loss band as 5 % of ln K below it", () => {
    const ln4 = Math.log(4);
    const inside = at({ val_loss: flat(ln4 * 0.951), val_accuracy: flat(0.25) }, { num_classes: 4, n_val: 1000 });
    expect(inside?.evidence.find((e) => e.artifact.endsWith("val/loss"))?.threshold).toBeCloseTo(ln4 * 0.95, 5);
    const outside = at({ val_loss: flat(ln4 * 0.949), val_accuracy: flat(0.25) }, { num_classes: 4, n_val: 1000 });
    expect(outside?.evidence.some((e) => e.artifact.endsWith("val/loss")) ?? false).toBe(false);
  });
});

describe("TH-04 chance level: K read from the first training loss", () => {
  const run = (first: number) => trainingRun({ train_loss: [first, ...series(30, (i) => 0.5 / (1 + i))] });

  it("is the K whose ln K the first loss sits within 5 % of, just inside and not just outside", () => {
    const ln2 = Math.log(2);
    for (const share of [0.951, 1, 1.049]) expect(classCount(run(ln2 * share))).toEqual({ k: 2, source: "initial loss" });
    for (const share of [0.949, 1.051]) expect(classCount(run(ln2 * share))).toBeNull();
  });

  it("stops at K = 100, where ln K and ln (K + 1) can no longer be told apart", () => {
    expect(classCount(run(Math.log(100)))).toEqual({ k: 100, source: "initial loss" });
    expect(classCount(run(Math.log(101)))).toBeNull();
  });
});
