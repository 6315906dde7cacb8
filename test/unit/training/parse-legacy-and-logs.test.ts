import { describe, expect, it } from "vitest";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";
import { logLines, summarizeLogs } from "../../../nodes/training/parse/logs.js";

describe("legacy metrics_values", () => {
  it("reads the wide column map with step and epoch columns", () => {
    const run = parseTrainingArtifact({
      metrics_path: "/mnt/runs/42/metrics.csv",
      metrics_values: { epoch: [0, 1, 2], step: [100, 200, 300], train_loss: [1.2, 0.9, 0.7], val_loss: [1.3, null, 0.85] },
      params: { lr: 0.001, early_stopping: true },
    });
    expect(run.format).toBe("legacy_metrics_values");
    expect([...run.series.get("val/loss")!.steps]).toEqual([100, 300]);
    expect(run.series.get("train/loss")!.epochs![2]).toBe(2);
    expect(run.meta.metricsPath).toBe("/mnt/runs/42/metrics.csv");
    expect(run.params).toEqual({ lr: "0.001", early_stopping: "True" });
  });

  it("reads the long column map the original client exported from MLflow", () => {
    const run = parseTrainingArtifact({
      metrics_values: { key: ["val_loss", "train_loss", "val_loss"], value: [0.5, 0.8, "NaN"], step: [1, 1, 2], timestamp: [10, 9, 20] },
    });
    const val = run.series.get("val/loss")!;
    expect([...val.steps]).toEqual([1, 2]);
    expect(Number.isNaN(val.values[1]!)).toBe(true);
  });
});

describe("free-text logs", () => {
  const lines = logLines([
    "Epoch 3/30",
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of 15.77 GiB",
    "Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 32768.0",
    "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 65536, reducing to 32768",
    "WARNING: Loss is nan, stopping training",
    "RuntimeError: Function 'LogSoftmaxBackward0' returned nan values in its 0th output.",
    "RuntimeError: DataLoader worker (pid 4242) is killed by signal: Killed.\nERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).",
    "The 'train_dataloader' does not have many workers which may be a bottleneck.",
    "Monitored metric val_loss did not improve in the last 3 records. Best score: 0.412. Signaling Trainer to stop.",
    "Epoch 14: early stopping",
    "Restoring model weights from the end of the best epoch: 11.",
    "Epoch 9: ReduceLROnPlateau reducing learning rate to 0.0005000000237487257.",
    "early_stopping: False",
    "[INFO|trainer.py:2414] >> ***** Running training *****",
  ]);

  it("recognizes OOM, non-finite loss, NaN warnings, overflow, data-loader trouble, early stopping and LR cuts", () => {
    const s = summarizeLogs(lines);
    expect(s.lines).toBe(15);
    expect(s.counts).toEqual({
      cuda_oom: 1,
      nonfinite_loss: 1,
      nonfinite_warning: 1,
      gradient_overflow: 2,
      dataloader_error: 2,
      dataloader_bottleneck: 1,
      early_stopping: 2,
      restored_best: 1,
      lr_reduced: 1,
    });
    expect(s.events.find((e) => e.kind === "cuda_oom")!.line).toBe(1);
  });

  it("bounds what it keeps: five example lines per kind, long lines cut", () => {
    const s = summarizeLogs(Array.from({ length: 50 }, () => `CUDA out of memory ${"x".repeat(5000)}`));
    expect(s.counts.cuda_oom).toBe(50);
    expect(s.events).toHaveLength(5);
    expect(s.events[0]!.text.length).toBeLessThanOrEqual(300);
  });

  it("analyzes logs alone when no metrics were sent, and refuses an artifact with neither", () => {
    const run = parseTrainingArtifact({ logs: "step 10 loss 2.3\nCUDA out of memory." });
    expect(run.format).toBe("logs_only");
    expect(run.logs.counts.cuda_oom).toBe(1);
    expect(() => parseTrainingArtifact({ params: { lr: 1 } })).toThrow(/no metrics/);
  });
});
