import { describe, expect, it } from "vitest";
import { detectTrainingFindings } from "../../../nodes/training/detect.js";
import { trainingDigest } from "../../../nodes/training/digest.js";
import { lttbIndices } from "../../../nodes/training/downsample.js";
import { trainingFacts } from "../../../nodes/training/facts-of.js";
import { TrainingFactsSchema } from "../../../nodes/training/facts.js";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";
import { healthyHistory } from "../../support/synthetic-history.js";
import { series, trainingRun } from "../../support/training-run.js";

describe("training facts", () => {
  it("fills every field from the run, valid against the contract", () => {
    const run = trainingRun(
      {
        train_loss: series(20, (i) => 2 - 0.08 * i),
        val_loss: [[4, 1.5], [9, 1.2], [14, 1.25], [19, Number.NaN]],
        val_accuracy: [[4, 0.6], [9, 0.7], [14, 0.72], [19, 0.71]],
        "lr-Adam": series(20, (i) => (i < 5 ? (i + 1) * 2e-4 : 1e-3 * (1 - (i - 5) / 20))),
      },
      { params: { num_classes: 3, restore_best_weights: true, dropout: 0.1 }, logs: ["CUDA out of memory."] },
    );
    const facts = TrainingFactsSchema.parse(trainingFacts(run));
    expect(facts).toMatchObject({
      metrics: ["lr", "train/loss", "val/accuracy", "val/loss"],
      n_points: 48,
      val_quantities: ["accuracy", "loss"],
      last_step: 19,
      best_val_step: 9,
      best_val_loss: 1.2,
      final_val_loss: 1.25,
      best_val_accuracy: 0.72,
      final_val_accuracy: 0.71,
      final_train_accuracy: null,
      lr_peak_step: 4,
      losses_finite: false,
      params: { num_classes: "3", restore_best_weights: "True", dropout: "0.1" },
      num_classes: 3,
      best_checkpoint_kept: true,
      log_events: { cuda_oom: 1 },
      format: "mlflow_history",
    });
    expect(facts.final_train_loss).toBeCloseTo(0.48, 6);
  });

  it("takes the best validation value among the finite ones, the first of equals, past NaN and ±Infinity", () => {
    const inf = Number.POSITIVE_INFINITY;
    const best = (val_loss: number[], val_accuracy: number[]) => {
      const f = trainingFacts(trainingRun({ val_loss, val_accuracy }));
      return [f.best_val_step, f.best_val_loss, f.best_val_accuracy];
    };
    expect(best([Number.NaN, inf, 3, -inf, 2, 2, Number.NaN, 5], [Number.NaN, -inf, 0.5, inf, 0.7, 0.7, 0.1, 0.2])).toEqual([4, 2, 0.7]);
    expect(best([-inf, 7, 7], [inf, 0.3, 0.3])).toEqual([1, 7, 0.3]);
    expect(best([Number.NaN, inf, -inf], [Number.NaN, -inf, inf])).toEqual([null, null, null]);
  });
});

describe("training digest", () => {
  it("stays the same size whatever the history length", () => {
    const sizes = [1_000, 200_000].map((n) => {
      const run = trainingRun({ loss: series(n, (i) => 2 * Math.exp(-i / (n / 5)) + 0.1), val_loss: series(n, (i) => 2.1 * Math.exp(-i / (n / 5)) + 0.2) });
      return JSON.stringify(trainingDigest(run, detectTrainingFindings(run))).length;
    });
    expect(Math.abs(sizes[1]! - sizes[0]!)).toBeLessThan(200);
    expect(sizes[1]).toBeLessThan(4_000);
  });

  it("summarizes each series with its extremes and a downsampled shape that keeps a spike", () => {
    const loss = series(5000, (i) => 1 + Math.exp(-i / 1000));
    loss[3210] = 9;
    const run = trainingRun({ loss });
    const digest = trainingDigest(run, detectTrainingFindings(run));
    const s = digest.series[0]!;
    expect(s).toMatchObject({ name: "train/loss", points: 5000, max: [3210, 9], nonfinite: 0 });
    expect(s.shape).toHaveLength(16);
    expect(s.shape).toContainEqual([3210, 9]);
    expect(digest.findings.map((f) => f.id)).toContain("training.loss_spikes");
  });

  it("bounds series, params and log examples", () => {
    const metrics = Object.fromEntries(Array.from({ length: 60 }, (_, k) => [`metric_${k}`, [1, 2, 3]]));
    const params = Object.fromEntries(Array.from({ length: 100 }, (_, k) => [`p${k}`, "x".repeat(500)]));
    const run = parseTrainingArtifact({ metrics, params, logs: Array.from({ length: 40 }, () => "CUDA out of memory") });
    const digest = trainingDigest(run, []);
    expect(digest.series).toHaveLength(16);
    expect(digest.other_series).toHaveLength(20);
    expect(Object.keys(digest.params)).toHaveLength(40);
    expect(Object.values(digest.params)[0]).toHaveLength(120);
    expect(digest.logs.examples.length).toBeLessThanOrEqual(8);
  });

  it("LTTB keeps the first and last points and returns the requested count", () => {
    const x = Float64Array.from({ length: 100 }, (_, i) => i);
    const y = Float64Array.from({ length: 100 }, (_, i) => Math.sin(i / 5));
    const idx = lttbIndices(x, y, 10);
    expect(idx).toHaveLength(10);
    expect(idx[0]).toBe(0);
    expect(idx[9]).toBe(99);
    expect(lttbIndices(x, y, 500)).toHaveLength(100);
  });

  it("reuses the memoized detector run for the digest's findings", () => {
    const run = parseTrainingArtifact(healthyHistory(3));
    expect(detectTrainingFindings(run)).toBe(detectTrainingFindings(run));
  });
});
