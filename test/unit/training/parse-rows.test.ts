import { describe, expect, it } from "vitest";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";
import { sampleTrainingArtifact } from "../../support/training-run.js";

describe("wide and long rows", () => {
  it("reads Keras History rows (the tabular-drift sample) with the epoch as x axis", () => {
    const run = parseTrainingArtifact(sampleTrainingArtifact("tabular-drift-evidently"));
    expect(run.format).toBe("wide_rows");
    expect([...run.series.keys()]).toEqual(["lr", "train/accuracy", "train/loss", "val/accuracy", "val/loss"]);
    const acc = run.series.get("train/accuracy")!;
    expect(acc.steps[29]).toBe(29);
    expect(acc.epochs![29]).toBe(29);
    expect(acc.values[29]).toBeCloseTo(0.9684, 4);
    expect(run.logs.counts.lr_reduced).toBe(5);
  });

  it("reads sparse Lightning-style rows: missing keys and nulls are gaps, step is the x axis", () => {
    const run = parseTrainingArtifact({
      metrics: [
        { epoch: 0, step: 49, train_loss_step: 0.91 },
        { epoch: 0, step: 99, train_loss_step: 0.7 },
        { epoch: 0, step: 99, val_loss: 0.65, val_acc: 0.71, train_loss_step: null },
        { epoch: 0, step: 99, train_loss_epoch: 0.8 },
        { step: 99, "lr-Adam": 0.001, run_id: "abc123", is_best: true },
      ],
    });
    expect([...run.series.get("train/loss@step")!.steps]).toEqual([49, 99]);
    expect([...run.series.get("train/loss@epoch")!.values]).toEqual([0.8]);
    expect([...run.series.get("val/accuracy")!.values]).toEqual([0.71]);
    expect(run.series.get("lr")!.epochs).toBeNull();
    expect(run.series.has("run_id")).toBe(false);
  });

  it("rejects a metric value that is text", () => {
    expect(() => parseTrainingArtifact({ metrics: [{ epoch: 0, val_loss: "low" }] })).toThrow(/metrics\[0\]\.val_loss: expected a number/);
  });

  it("reads MLflow long rows concatenated per metric (the mlflow-logged-dataset sample)", () => {
    const run = parseTrainingArtifact(sampleTrainingArtifact("mlflow-logged-dataset"));
    expect(run.format).toBe("long_rows");
    expect([...run.series.keys()]).toEqual(["train/accuracy", "train/loss", "val/accuracy", "val/loss"]);
    expect(run.series.get("val/accuracy")!.values[0]).toBeCloseTo(0.9953, 4);
  });

  it("orders long rows given in any order", () => {
    const run = parseTrainingArtifact({
      metrics: [
        { key: "loss", value: 0.4, step: 2, timestamp: 3 },
        { key: "loss", value: "NaN", step: 1, timestamp: 2 },
        { key: "loss", value: 1.0, step: 0, timestamp: 1 },
      ],
    });
    expect([...run.series.get("train/loss")!.steps]).toEqual([0, 1, 2]);
    expect(Number.isNaN(run.series.get("train/loss")!.values[1]!)).toBe(true);
  });
});
