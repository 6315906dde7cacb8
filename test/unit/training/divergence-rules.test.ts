import { describe, expect, it } from "vitest";
import { divergence, findDivergence, findWorseThanPrior } from "../../../nodes/training/detectors/divergence.js";
import { curve } from "../../../nodes/training/curves.js";
import { Prng } from "../../support/prng.js";
import { series, trainingRun } from "../../support/training-run.js";

/**
 * TH-02's thresholds at their edges (detectors-loss.test.ts has the shapes it fires on): the rise must exceed
 * max(3σ̂, 50 % of the drop start → min, 2 % of the minimum); critical once the loss ends at or above its start;
 * quiet while the last window falls back; a multiplicative blow-up judged on a log scale; and the
 * worse-than-the-prior reading, K known, at 1.5 ln K.
 */

const N = 40;
/** Flat at 1, then rising linearly over the last 10 points by `r` (the mean of the last 3 ends 0.9 r above 1). */
const flatThenRise = (r: number) => series(N, (i) => (i < 30 ? 1 : 1 + (r * (i - 29)) / 10));
/** Falling linearly from 2 to 1 over the first 10 points, flat, then rising by `r` over the last 10 (start 1.9). */
const dropThenRise = (r: number) => series(N, (i) => (i <= 10 ? 2 - i / 10 : i < 30 ? 1 : 1 + (r * (i - 29)) / 10));
const detect = (loss: number[], params: Record<string, unknown> = {}) => divergence.detect(trainingRun({ loss }, { params }));
const severities = (loss: number[], params?: Record<string, unknown>) => detect(loss, params).map((f) => f.severity);

describe("TH-02 divergence: the rise above the smoothed minimum", () => {
  it("must exceed 2 % of the minimum on a quiet curve that never fell", () => {
    // Rise of the end window 0.9 r: 2.25 % fires, 1.8 % does not.
    expect(severities(flatThenRise(0.025))).toEqual(["critical"]);
    expect(severities(flatThenRise(0.02))).toEqual([]);
  });

  it("must exceed half the drop from the start to the minimum, and is critical once it ends at or above the start", () => {
    // Start 1.9, minimum 1: the threshold is 0.45.
    expect(severities(dropThenRise(0.55))).toEqual(["high"]);
    expect(severities(dropThenRise(0.45))).toEqual([]);
    // End 1.882 vs 1.918 against the start 1.9.
    expect(severities(dropThenRise(0.98))).toEqual(["high"]);
    expect(severities(dropThenRise(1.02))).toEqual(["critical"]);
  });

  it("reports where the minimum was and the numbers it judged", () => {
    const [f] = detect(dropThenRise(0.55));
    expect(f).toMatchObject({ title: "Training loss diverged after its minimum" });
    const e = f!.evidence[0]!;
    expect(e).toMatchObject({ rule_id: "TH-02", artifact: "training_artifacts.metrics:train/loss", n_points: N, window: [e.window![0], 39] });
    expect(e.window![0]).toBeGreaterThanOrEqual(10);
    expect(e.window![0]).toBeLessThan(30);
    expect(e.values).toMatchObject({ start: 1.9, min: 1, smoothing_window: 3 });
    expect(Number(e.values!.end)).toBeCloseTo(1.495, 10);
    expect(Number(e.observed)).toBeCloseTo(0.495, 5);
    expect(Number(e.threshold)).toBeCloseTo(0.45, 5);
    expect(e.text).toContain("start 1.9, minimum 1");
    expect(e.text).toContain("end 1.495; rise 0.495 against a threshold of 0.45");
    expect(f!.description).toContain("rose to 1.495");
    expect(f!.description).not.toContain("above where it started");
    const [above] = detect(dropThenRise(1.2));
    expect(above).toMatchObject({ title: "Training loss diverged above its starting value" });
    expect(above!.description).toContain("above where it started (1.9)");
  });

  it("stays quiet while the last window falls back significantly", () => {
    const rising = dropThenRise(1.2);
    expect(detect(rising)).toHaveLength(1);
    const fallingBack = rising.map((v, i) => (i >= N - 3 ? 2.6 - 0.1 * (i - (N - 3)) : v));
    expect(findDivergence(curve(trainingRun({ loss: fallingBack }), "train", "loss")!)).toBeNull();
    expect(detect(fallingBack)).toEqual([]);
  });

  it("needs 10 points", () => {
    const nine = [2, 1.5, 1, 1, 1, 1, 3, 3, 3];
    expect(findDivergence(curve(trainingRun({ loss: [...nine, 3] }), "train", "loss")!)).not.toBeNull();
    expect(findDivergence(curve(trainingRun({ loss: nine }), "train", "loss")!)).toBeNull();
  });

  it("reports a multiplicative blow-up (0.5 → ~500, ×/÷ 3 swings) in the loss's own units, critical", () => {
    const rng = new Prng(8);
    const blowUp = series(60, (i) => (i < 10 ? 1 - 0.05 * i : 0.5 * 1.15 ** (i - 10)) * 3 ** (rng.next() < 0.5 ? -1 : 1));
    const d = findDivergence(curve(trainingRun({ loss: blowUp }), "train", "loss")!)!;
    expect(d.end).toBeGreaterThan(50);
    expect(d.rise).toBeCloseTo(d.end - d.min, 10);
    expect(severities(blowUp)).toEqual(["critical"]);
  });

  it("judges a positive loss spanning more than 10× on a log scale when its linear σ̂ hides the rise", () => {
    // ~1 for 6 points, then 1000–10 000 at random: the linear σ̂ (thousands) exceeds the rise, the log one does not.
    const jumped = (seed: number, base = 1e3) => {
      const rng = new Prng(seed);
      return series(60, (i) => (i < 6 ? 1 + 0.1 * rng.next() : base * 10 ** rng.next()));
    };
    const loss = jumped(2);
    const c = curve(trainingRun({ loss }), "train", "loss")!;
    const d = findDivergence(c)!;
    expect(d).not.toBeNull();
    expect(3 * c.noise).toBeGreaterThan(d.rise);
    // Geometric means of the windows, not arithmetic ones: the start is the first 3 points' geometric mean.
    const geometric = Math.exp((Math.log(loss[0]!) + Math.log(loss[1]!) + Math.log(loss[2]!)) / 3);
    expect(d.start).toBeCloseTo(geometric, 10);
    expect(d.start).not.toBeCloseTo((loss[0]! + loss[1]! + loss[2]!) / 3, 6);
    const logEnd = (Math.log(loss[57]!) + Math.log(loss[58]!) + Math.log(loss[59]!)) / 3;
    expect(d.end).toBeCloseTo(Math.exp(logEnd), 6);
    expect(d.rise).toBeCloseTo(d.end - d.min, 10);
    expect(d.min).toBeGreaterThan(1);
    expect(d.min).toBeLessThan(1.1);
    expect(d.threshold).toBeGreaterThan(0);
    expect(d.threshold).toBeLessThan(d.rise);
    expect(severities(loss)).toEqual(["critical"]);
    // A span under 10× is not read on a log scale: the same shape from 1 to 1.5–9.
    expect(findDivergence(curve(trainingRun({ loss: jumped(2, 0.9) }), "train", "loss")!)).toBeNull();
    // Nor is a loss that is not positive throughout.
    const shifted = loss.map((v, i) => (i === 0 ? 0 : v));
    expect(findDivergence(curve(trainingRun({ loss: shifted }), "train", "loss")!)).toBeNull();
  });
});

describe("TH-02 worse than the prior: K known, the loss ends above max(1.5 ln K, ln K + 3σ̂)", () => {
  const K = { num_classes: 10 };
  const chance = Math.log(10);
  /** A loss flat at `level` (K = 10 from the params), no divergence shape. */
  const flat = (level: number, n = 20) => series(n, () => level);

  it("fires just above 1.5 ln K and not just below", () => {
    expect(severities(flat(1.5 * chance + 0.01), K)).toEqual(["high"]);
    expect(severities(flat(1.5 * chance - 0.01), K)).toEqual([]);
    expect(severities(flat(1.5 * chance + 0.01))).toEqual([]);
  });

  it("needs 5 points", () => {
    expect(findWorseThanPrior(trainingRun({ loss: flat(5, 5) }, { params: K }))).not.toBeNull();
    expect(findWorseThanPrior(trainingRun({ loss: flat(5, 4) }, { params: K }))).toBeNull();
  });

  it("raises the bar to ln K + 3σ̂ on a noisy loss", () => {
    // σ̂ ≈ 0.46, so the bar is ln 10 + 1.38 ≈ 3.69 instead of 3.45; the final value is the level − 0.2.
    const noisy = (level: number) => {
      const rng = new Prng(2);
      return trainingRun({ loss: series(40, () => level + 0.5 * rng.normal()) }, { params: K });
    };
    const run = noisy(4);
    const bar = chance + 3 * curve(run, "train", "loss")!.noise;
    expect(bar).toBeGreaterThan(1.5 * chance + 0.2);
    const p = findWorseThanPrior(run)!;
    expect(p).toMatchObject({ k: 10, kFrom: "params" });
    expect(p.threshold).toBeCloseTo(bar, 10);
    expect(p.end).toBeCloseTo(3.8, 2);
    // Ending at 3.55: above 1.5 ln K, below the noisy bar.
    expect(findWorseThanPrior(noisy(3.75))).toBeNull();
    expect(severities(flat(3.55), K)).toEqual(["high"]);
  });

  it("stays quiet while the loss falls back in its last window", () => {
    const falling = series(20, (i) => (i < 17 ? 5 : 5 - 0.2 * (i - 16)));
    expect(severities(falling, K)).toEqual([]);
    expect(severities(flat(5), K)).toEqual(["high"]);
  });

  it("reads the validation loss when no training loss was logged, and reports K and where it came from", () => {
    const [f] = divergence.detect(trainingRun({ val_loss: flat(4) }, { params: K }));
    expect(f).toMatchObject({ severity: "high", title: "Loss ended far above chance: worse than predicting the class prior" });
    const e = f!.evidence[0]!;
    expect(e).toMatchObject({ rule_id: "TH-02", artifact: "training_artifacts.metrics:val/loss", observed: 4, n_points: 20, window: [0, 19] });
    expect(e.values).toMatchObject({ classes: 10, classes_from: "params", chance_loss: 2.30259 });
    expect(Number(e.threshold)).toBeCloseTo(1.5 * chance, 4);
    expect(e.text).toContain("ln K = 2.303; threshold max(1.5 ln K, ln K + 3σ̂) = 3.454");
    expect(f!.description).toContain("val/loss ended at 4, above 3.454");
    expect(f!.description).toContain("ln 10 = 2.303 (K = 10 from the params)");
  });
});
