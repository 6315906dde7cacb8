import { describe, expect, it } from "vitest";
import { directionOf } from "../../../nodes/training/metric-quantities.js";
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

describe("normalizeMetricName: the ecosystem's separators and prefixes", () => {
  it.each([
    // XGBoost / LightGBM / CatBoost, as evals_result() and MLflow autolog name them
    ["validation_0-logloss", "val/loss", "loss"],
    ["valid_0-binary_logloss", "val/loss", "loss"],
    ["valid-binary_logloss", "val/loss", "loss"],
    ["train-rmse", "train/rmse", "rmse"],
    ["eval-auc", "val/auc", "auc"],
    ["validation_1-error", "val_1/error", "error"],
    ["validation_0-mlogloss", "val/loss", "loss"],
    ["training-multi_logloss", "train/loss", "loss"],
    ["valid_1-l2", "val_1/mse", "mse"],
    ["learn-Logloss", "train/loss", "loss"],
    ["validation-MultiClass", "val/loss", "loss"],
    ["test-error", "test/error", "error"],
    ["valid.l1", "val/mae", "mae"],
    // Ultralytics results.csv
    ["train/box_loss", "train/loss", "loss"],
    ["val/cls_loss", "val/cls_loss", "cls_loss"],
    ["metrics/mAP50(B)", "val/map50", "map50"],
    ["metrics/mAP50-95(B)", "val/map50_95", "map50_95"],
    ["metrics/precision(B)", "val/precision", "precision"],
    ["lr/pg0", "lr", "lr"],
    // timm summary.csv, fastai history.csv
    ["eval_top1", "val/top1", "top1"],
    ["eval_top5", "val/top5", "top5"],
    ["valid_loss", "val/loss", "loss"],
    ["error_rate", "train/error", "error"],
    ["cross_entropy", "train/loss", "loss"],
  ])("%s → %s", (raw, name, quantity) => {
    expect(normalizeMetricName(raw)).toMatchObject({ name, quantity });
  });

  it("keeps a metrics/ prefix without Ultralytics' task tag as a name of its own, not a validation metric", () => {
    expect(normalizeMetricName("metrics/accuracy").split).toBe("none");
  });

  it("says which way each quantity is better", () => {
    expect(directionOf("loss")).toBe("lower");
    expect(directionOf("error")).toBe("lower");
    expect(directionOf("rmse")).toBe("lower");
    expect(directionOf("dfl_loss")).toBe("lower");
    expect(directionOf("auc")).toBe("higher");
    expect(directionOf("map50_95")).toBe("higher");
    expect(directionOf("lr")).toBeNull();
    expect(directionOf("throughput")).toBeNull();
  });
});
