import { describe, expect, it } from "vitest";
import { ampOverflow } from "../../../nodes/training/detectors/amp-overflow.js";
import { vanishingGradients } from "../../../nodes/training/detectors/vanishing-gradients.js";
import { series, trainingRun } from "../../support/training-run.js";

/**
 * TH-21's three readings (a loss scale halved ≥ 3 times down to ≤ 1, > 5 % of steps skipped for overflow, fp16 with
 * a non-finite value) and TH-10's collapse ratio, absolute floor and stalled-loss condition, at their edges.
 */

describe("TH-21 amp_overflow", () => {
  const scaled = (values: number[]) => ampOverflow.detect(trainingRun({ loss_scale: values, loss: series(values.length, (i) => 2 - 0.01 * i) }));

  it("fires for three halvings down to 1, not two, and not when the scale stays above 1", () => {
    const [f] = scaled([8, 8, 4, 2, 1, 1]);
    expect(f).toMatchObject({ id: "training.amp_overflow", severity: "medium", title: "Mixed-precision overflow" });
    expect(f!.evidence[0]).toMatchObject({ rule_id: "TH-21", artifact: "training_artifacts.metrics:loss_scale", observed: 1, threshold: 1, n_points: 6, values: { halvings: 3 } });
    expect(f!.evidence[0]!.text).toBe("The loss scale was halved 3 times, down to 1.");
    expect(f!.description).toContain("(The loss scale was halved 3 times, down to 1): fp16");
    expect(scaled([4, 4, 2, 1, 1])).toEqual([]);
    expect(scaled([16, 8, 4, 2, 2])).toEqual([]);
  });

  it("counts a drop to 55 % of the previous value as a halving, not one to 56 %", () => {
    expect(scaled([1, 0.55, 0.3025, 0.166375])).toHaveLength(1);
    expect(scaled([1, 0.56, 0.3136, 0.175616])).toEqual([]);
  });

  it("counts skipped steps against max_steps, else the run's last step: more than 5 %", () => {
    const logs = (k: number) => Array.from({ length: k }, () => "Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 1024");
    const run = (k: number) => trainingRun({ loss: series(101, (i) => 2 - 0.01 * i) }, { logs: logs(k) });
    const [f] = ampOverflow.detect(run(6));
    expect(f!.evidence[0]).toMatchObject({ artifact: "training_artifacts.logs", observed: 0.06, threshold: 0.05 });
    expect(f!.evidence[0]!.text).toBe('6 "gradient overflow / skipping step" log lines over 100 steps (6 %).');
    expect(ampOverflow.detect(run(5))).toEqual([]);
  });

  it("under fp16, reports a non-finite grad norm first, else a non-finite loss", () => {
    const loss = series(20, (i) => (i === 12 ? Number.NaN : 2 - 0.01 * i));
    const grad = series(20, (i) => (i === 15 ? Number.POSITIVE_INFINITY : 1));
    const [both] = ampOverflow.detect(trainingRun({ loss, grad_norm: grad }, { params: { fp16: true } }));
    expect(both!.evidence[0]).toMatchObject({ artifact: "training_artifacts.params", observed: "Infinity", threshold: "finite" });
    expect(both!.evidence[0]!.text).toBe("fp16 mixed precision is on and grad_norm is Infinity at step 15: an fp16 overflow.");
    const [lossOnly] = ampOverflow.detect(trainingRun({ loss }, { params: { fp16: true } }));
    expect(lossOnly!.evidence[0]!.text).toBe("fp16 mixed precision is on and train/loss is NaN at step 12: an fp16 overflow.");
    expect(ampOverflow.detect(trainingRun({ loss, grad_norm: grad }))).toEqual([]);
    expect(ampOverflow.detect(trainingRun({ loss: series(20, () => 1) }, { params: { fp16: true } }))).toEqual([]);
  });

  it("puts every reading in one finding, more confident with each", () => {
    const loss = series(101, (i) => (i === 50 ? Number.NaN : 2 - 0.01 * i));
    const logs = Array.from({ length: 10 }, () => "Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 1024");
    const [f] = ampOverflow.detect(trainingRun({ loss, loss_scale: [8, 4, 2, 1], }, { params: { fp16: true }, logs }));
    expect(f!.evidence.map((e) => e.artifact)).toEqual(["training_artifacts.metrics:loss_scale", "training_artifacts.logs", "training_artifacts.params"]);
    expect(f!.confidence).toBeGreaterThan(scaled([8, 4, 2, 1])[0]!.confidence);
  });
});

describe("TH-10 vanishing_gradients", () => {
  const N = 100;
  /** A gradient norm of 1 for the first 5 %, then `late` for the last 10 % (geometric in between). */
  const norms = (late: number) => series(N, (i) => (i < 5 ? 1 : i >= 90 ? late : late ** ((i - 5) / 85)));
  const stalledLoss = series(N, (i) => (i < 20 ? 2 - 0.05 * i : 1));
  const fallingLoss = series(N, (i) => 2 - 0.015 * i);

  it("is high when the late median falls below 1e-3 × the early one while the loss stalls, not at 1.1e-3", () => {
    const [f] = vanishingGradients.detect(trainingRun({ grad_norm: norms(0.9e-3), loss: stalledLoss }));
    expect(f).toMatchObject({ id: "training.vanishing_gradients", severity: "high" });
    const e = f!.evidence[0]!;
    expect(e).toMatchObject({ rule_id: "TH-10", artifact: "training_artifacts.metrics:grad_norm", threshold: 1e-3, n_points: N, window: [0, 99], observed: 0.0009 });
    expect(e.values).toMatchObject({ early_median: 1, late_median: 0.0009, loss_stalled: true });
    expect(e.text).toBe("Median grad_norm 1 over the first 5 % of steps, 9e-4 over the last 10 %; ratio 9e-4 (threshold 0.001), absolute floor 1e-7.");
    expect(f!.description).toContain("fell from 1 early in training to 9e-4 at the end (9e-4×) while the loss stopped improving");
    expect(vanishingGradients.detect(trainingRun({ grad_norm: norms(1.1e-3), loss: stalledLoss }))).toEqual([]);
  });

  it("needs the loss stalled for a collapse", () => {
    expect(vanishingGradients.detect(trainingRun({ grad_norm: norms(1e-4), loss: fallingLoss }))).toEqual([]);
    expect(vanishingGradients.detect(trainingRun({ grad_norm: norms(1e-4) }))).toEqual([]);
  });

  it("is medium below 1e-7 whatever the loss does, high with a stalled loss", () => {
    const tiny = (late: number) => series(N, (i) => (i < 50 ? 1e-6 : late));
    const [f] = vanishingGradients.detect(trainingRun({ grad_norm: tiny(0.9e-7), loss: fallingLoss }));
    expect(f).toMatchObject({ severity: "medium" });
    expect(f!.description).not.toContain("while the loss stopped improving");
    expect(vanishingGradients.detect(trainingRun({ grad_norm: tiny(1.1e-7), loss: fallingLoss }))).toEqual([]);
    expect(vanishingGradients.detect(trainingRun({ grad_norm: tiny(0.9e-7), loss: stalledLoss }))[0]).toMatchObject({ severity: "high" });
  });

  it("needs 20 logged norms", () => {
    const short = (n: number) => trainingRun({ grad_norm: series(n, (i) => (i < n / 2 ? 1 : 1e-9)), loss: series(n, () => 1) });
    expect(vanishingGradients.detect(short(20))).toHaveLength(1);
    expect(vanishingGradients.detect(short(19))).toEqual([]);
  });

  it("reads the stall over the second half: < 1 % improvement there", () => {
    const secondHalf = (drop: number) => series(N, (i) => (i < 50 ? 3 - 0.04 * i : 1 - (drop * (i - 50)) / 49));
    expect(vanishingGradients.detect(trainingRun({ grad_norm: norms(1e-4), loss: secondHalf(0.005) }))).toHaveLength(1);
    expect(vanishingGradients.detect(trainingRun({ grad_norm: norms(1e-4), loss: secondHalf(0.05) }))).toEqual([]);
  });
});
