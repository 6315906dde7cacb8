import { describe, expect, it } from "vitest";
import { earlyStopOpportunity } from "../../../nodes/training/detectors/early-stop-opportunity.js";
import { evalCoverage } from "../../../nodes/training/detectors/eval-coverage.js";
import { overClipping } from "../../../nodes/training/detectors/over-clipping.js";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";
import { series, trainingRun } from "../../support/training-run.js";

/**
 * Three rules about how a run was run, at their edges: TH-15 (≥ max(3, 20 %) evaluations after validation
 * saturated), TH-22 (no validation metric, < 5 points, the first after 25 % of the run) and TH-12 (the clipped
 * share and the clipping threshold it reads).
 */

/** Points as [step, value] pairs for f(i), i = 0 … n − 1. */
const points = (n: number, f: (i: number) => [number, number]) => Array.from({ length: n }, (_, i) => f(i));

describe("TH-15 early_stop_opportunity", () => {
  /** A val loss falling linearly to 0.5 at evaluation `sat`, then flat at 0.5 (40 evaluations, no noise). */
  const saturated = (sat: number, n = 40) => series(n, (i) => (i < sat ? 2 - (1.5 * i) / sat : 0.5));
  const detect = (val: number[], params: Record<string, unknown> = {}) => earlyStopOpportunity.detect(trainingRun({ val_loss: val, loss: series(val.length, (i) => 2 - i / val.length) }, { params }));

  it("is low with 8 of 40 evaluations (20 %) after saturation, quiet with 7", () => {
    // The smoothed curve (window 3) reaches the best one evaluation after the raw one does.
    const [f] = detect(saturated(30));
    expect(f).toMatchObject({ id: "training.early_stop_opportunity", severity: "low" });
    const e = f!.evidence[0]!;
    expect(e).toMatchObject({ rule_id: "TH-15", artifact: "training_artifacts.metrics:val/loss", observed: 8, threshold: 8, n_points: 40, window: [31, 39] });
    expect(e.values).toMatchObject({ saturation_step: 31, best_checkpoint_kept: false, best_value: 0.5 });
    expect(Number(e.values!.wasted_share)).toBeCloseTo(8 / 39, 5);
    expect(e.text).toBe("val/loss within 1.5 standard errors of its best from step 31; 8 of 40 evaluations after it (threshold max(3, 20 %)).");
    expect(f!.recommendation!.action).toContain("shorten the schedule by about 20.51 %");
    expect(detect(saturated(31))).toEqual([]);
  });

  it("is info when the best checkpoint is kept, and says so", () => {
    const [f] = detect(saturated(20), { load_best_model_at_end: true });
    expect(f).toMatchObject({ severity: "info" });
    expect(f!.description).toContain(", though the best checkpoint was kept");
    expect(f!.evidence[0]!.values).toMatchObject({ best_checkpoint_kept: true });
  });

  it("needs 3 evaluations after saturation on a short run, and 6 evaluations", () => {
    expect(detect(saturated(3, 7))).toHaveLength(1);
    expect(detect(saturated(4, 7))).toEqual([]);
    expect(detect(saturated(2, 5))).toEqual([]);
  });

  it("stays quiet while the loss still falls significantly after the saturation point", () => {
    const creeping = series(40, (i) => (i < 20 ? 2 - 0.075 * i : 0.5 - 0.00001 * (i - 20)));
    expect(detect(creeping)).toEqual([]);
  });

  it("reads the val accuracy the other way up when no val loss was logged", () => {
    const acc = series(40, (i) => (i < 20 ? 0.5 + 0.02 * i : 0.9));
    const [f] = earlyStopOpportunity.detect(trainingRun({ val_accuracy: acc }));
    expect(f!.evidence[0]!.artifact).toBe("training_artifacts.metrics:val/accuracy");
    const rising = series(40, (i) => (i < 20 ? 0.5 + 0.02 * i : 0.9 + 0.00001 * (i - 20)));
    expect(earlyStopOpportunity.detect(trainingRun({ val_accuracy: rising }))).toEqual([]);
  });
});

describe("TH-22 eval_coverage", () => {
  const train = series(101, (i) => 2 - 0.01 * i);

  it("reports a run without a validation metric, naming what else is not logged", () => {
    const [f] = evalCoverage.detect(trainingRun({ loss: train }));
    expect(f).toMatchObject({ id: "training.eval_coverage", severity: "info", confidence: 0.9 });
    expect(f!.description).toBe("No validation metric was logged, so overfitting and generalization cannot be judged. The run also does not log lr or grad_norm.");
    expect(f!.evidence[0]).toMatchObject({ rule_id: "TH-22", artifact: "training_artifacts.metrics", observed: 0, threshold: 5, n_points: 0 });
    expect(f!.evidence[0]!.values).toMatchObject({ first_eval_step: null, run_last_step: 100, unlogged: "lr,grad_norm", first_eval_share: null });
    const logged = evalCoverage.detect(trainingRun({ loss: train, lr: series(101, () => 1e-3), grad_norm: series(101, () => 1) }))[0]!;
    expect(logged.description).toBe("No validation metric was logged, so overfitting and generalization cannot be judged.");
    expect(logged.evidence[0]!.values).toMatchObject({ unlogged: null });
  });

  it("reports fewer than 5 validation points, not 5", () => {
    const val = (k: number) => points(k, (i) => [i * 20, 2 - 0.1 * i]);
    const [f] = evalCoverage.detect(trainingRun({ loss: train, val_loss: val(4) }));
    expect(f!.evidence[0]!.text).toBe("Only 4 validation point(s) of val/loss were logged: too few to see a trend.");
    expect(f!.evidence[0]).toMatchObject({ artifact: "training_artifacts.metrics:val/loss", observed: 4, n_points: 4 });
    expect(evalCoverage.detect(trainingRun({ loss: train, val_loss: val(5) }))).toEqual([]);
  });

  it("reports a first evaluation after 25 % of the run, not at 25 %", () => {
    const from = (step: number) => points(6, (i) => [step + i * 10, 2 - 0.1 * i]);
    const [f] = evalCoverage.detect(trainingRun({ loss: train, val_loss: from(26) }));
    expect(f!.evidence[0]!.text).toBe("The first validation point of val/loss is at step 26 (26 % into the run): early instability would go unseen.");
    expect(f!.evidence[0]!.values).toMatchObject({ first_eval_step: 26, first_eval_share: 0.26 });
    expect(evalCoverage.detect(trainingRun({ loss: train, val_loss: from(25) }))).toEqual([]);
  });

  it("takes any validation metric when no val loss was logged, and says nothing about an empty run", () => {
    expect(evalCoverage.detect(trainingRun({ loss: train, val_accuracy: points(10, (i) => [i * 10, 0.5]) }))).toEqual([]);
    // Logs alone (no metric series): nothing to say about evaluation.
    const logsOnly = parseTrainingArtifact({ logs: ["starting", "CUDA out of memory"] });
    expect(logsOnly.series.size).toBe(0);
    expect(evalCoverage.detect(logsOnly)).toEqual([]);
  });
});

describe("TH-12 over_clipping", () => {
  const clipped = (share: number, params: Record<string, unknown> = { max_grad_norm: 1 }, n = 100) =>
    overClipping.detect(trainingRun({ grad_norm: series(n, (i) => (i < share * n ? 1 : 0.4)) }, { params }));

  it("reports the clipped count, share and threshold", () => {
    const [f] = clipped(0.6);
    expect(f).toMatchObject({ id: "training.over_clipping", severity: "low", title: "Gradient clipping is active on most steps" });
    expect(f!.evidence[0]).toMatchObject({ rule_id: "TH-12", artifact: "training_artifacts.metrics:grad_norm", observed: 0.6, threshold: 0.5, n_points: 100, window: [0, 99], values: { clip_threshold: 1 } });
    expect(f!.evidence[0]!.text).toBe("60 of 100 gradient norms ≥ max_grad_norm 1 (60 %; threshold 50 %).");
    expect(f!.description).toMatch(/^60 % of the logged gradient norms are at or above the clipping threshold 1:/);
  });

  it("counts a norm a hair under the threshold (logged after clipping) as clipped, not one 1e-5 under", () => {
    const near = (v: number) => overClipping.detect(trainingRun({ grad_norm: series(100, (i) => (i < 60 ? v : 0.4)) }, { params: { max_grad_norm: 1 } }));
    expect(near(1 - 1e-7)).toHaveLength(1);
    expect(near(1 - 1e-5)).toEqual([]);
  });

  it("needs 20 norms and a clipping threshold", () => {
    expect(clipped(0.9, { max_grad_norm: 1 }, 20)).toHaveLength(1);
    expect(clipped(0.9, { max_grad_norm: 1 }, 19)).toEqual([]);
    expect(clipped(0.9, {})).toEqual([]);
  });
});
