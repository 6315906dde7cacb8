import { describe, expect, it } from "vitest";
import { baseName, isAxisName, normalizeMetricName } from "../../../nodes/training/names.js";

describe("normalizeMetricName", () => {
  it.each([
    ["train_loss", "train/loss"],
    ["loss", "train/loss"],
    ["train/loss", "train/loss"],
    ["training_loss", "train/loss"],
    ["Loss/train", "train/loss"],
    ["val_loss", "val/loss"],
    ["eval_loss", "val/loss"],
    ["valid/loss", "val/loss"],
    ["validation_loss", "val/loss"],
    ["Loss/val", "val/loss"],
    ["test_loss", "test/loss"],
    ["accuracy", "train/accuracy"],
    ["acc", "train/accuracy"],
    ["val_acc", "val/accuracy"],
    ["val_accuracy", "val/accuracy"],
    ["sparse_categorical_accuracy", "train/accuracy"],
    ["eval_accuracy", "val/accuracy"],
    ["val_f1", "val/f1"],
    ["val_roc_auc", "val/auc"],
    ["lr", "lr"],
    ["learning_rate", "lr"],
    ["train/learning_rate", "lr"],
    ["lr-Adam", "lr"],
    ["lr-AdamW", "lr"],
    ["lr-AdamW/pg1", "lr"],
    ["grad_norm", "grad_norm"],
    ["gradient_norm", "grad_norm"],
    ["train/grad_norm", "grad_norm"],
    ["grad_2.0_norm_total", "grad_norm"],
    ["loss_scale", "loss_scale"],
    ["eval_perplexity", "val/perplexity"],
  ])("%s → %s", (raw, name) => {
    expect(normalizeMetricName(raw).name).toBe(name);
  });

  it("keeps Lightning's _step/_epoch suffixes as the aggregation of the same split + quantity", () => {
    expect(normalizeMetricName("loss_epoch")).toEqual({ name: "train/loss@epoch", split: "train", quantity: "loss", aggregation: "epoch" });
    expect(normalizeMetricName("train_loss_step")).toEqual({ name: "train/loss@step", split: "train", quantity: "loss", aggregation: "step" });
    expect(normalizeMetricName("val_acc_epoch")).toMatchObject({ split: "val", quantity: "accuracy", aggregation: "epoch" });
    expect(normalizeMetricName("epoch_loss")).toMatchObject({ split: "train", quantity: "loss", aggregation: "epoch" });
    expect(baseName("train/loss@step")).toBe("train/loss");
  });

  it("does not take momentum logged by Lightning's LearningRateMonitor for the learning rate", () => {
    expect(normalizeMetricName("lr-Adam-momentum").quantity).not.toBe("lr");
  });

  it("keeps unknown metrics under their own name, with the split when it is recognizable", () => {
    expect(normalizeMetricName("val_mae")).toMatchObject({ name: "val/mae", split: "val", quantity: "mae" });
    expect(normalizeMetricName("throughput")).toMatchObject({ name: "throughput", split: "none" });
  });

  it("tells axes from metrics", () => {
    expect(isAxisName("epoch")).toBe(true);
    expect(isAxisName("Step")).toBe(true);
    expect(isAxisName("timestamp")).toBe(true);
    expect(isAxisName("loss")).toBe(false);
  });
});
