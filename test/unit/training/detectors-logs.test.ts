import { describe, expect, it } from "vitest";
import { cudaOom, dataloaderBottleneck, dataloaderErrors, nonfiniteWarnings } from "../../../nodes/training/detectors/log-events.js";
import { nonfiniteLoss } from "../../../nodes/training/detectors/nonfinite-loss.js";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";
import { sampleTrainingArtifact, trainingRun } from "../../support/training-run.js";

const withLogs = (...logs: string[]) => trainingRun({ loss: [2, 1.5, 1.2, 1, 0.9] }, { logs });

describe("log-event detectors", () => {
  it("reports CUDA out-of-memory (high) quoting the line", () => {
    const [f] = cudaOom.detect(withLogs("epoch 3", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."));
    expect(f).toMatchObject({ id: "training.cuda_oom", severity: "high" });
    expect(f!.evidence[0]).toMatchObject({ artifact: "training_artifacts.logs", values: { line: 2 } });
  });

  it("reports killed data-loader workers (high) and the few-workers warning (low)", () => {
    expect(dataloaderErrors.detect(withLogs("RuntimeError: DataLoader worker (pid 93) is killed by signal: Killed."))[0]).toMatchObject({ severity: "high" });
    const [hint] = dataloaderBottleneck.detect(parseTrainingArtifact(sampleTrainingArtifact("full-image-classification")));
    expect(hint).toMatchObject({ id: "training.dataloader_bottleneck", severity: "low" });
  });

  it("reports NaN/Inf warnings about tensors (medium)", () => {
    expect(nonfiniteWarnings.detect(withLogs("RuntimeError: Function 'DivBackward0' returned nan values in its 0th output."))[0]).toMatchObject({ severity: "medium" });
  });

  it("leaves lines about a non-finite loss to TH-01, however the loss is named (catalog: other than the loss)", () => {
    const lightning = "Monitored metric val_loss = nan is not finite. Previous best value was inf. Signaling Trainer to stop.";
    for (const line of [lightning, "train_loss_epoch: inf", "Detected NaN in eval/loss at step 300", "WARNING: Loss is nan, stopping training"]) {
      const run = withLogs(line);
      expect(nonfiniteWarnings.detect(run), line).toEqual([]);
      expect(nonfiniteLoss.detect(run)[0]!.evidence[0], line).toMatchObject({ artifact: "training_artifacts.logs" });
    }
    expect(nonfiniteWarnings.detect(parseTrainingArtifact(sampleTrainingArtifact("tabular-nan-features")))).toEqual([]);
    // A non-finite metric that is not a loss, or a loss-scale line, is still a warning (or nothing), never a loss.
    const accuracy = withLogs("Monitored metric val_acc = nan is not finite. Previous best value was 0.812. Signaling Trainer to stop.");
    expect(nonfiniteWarnings.detect(accuracy)[0]).toMatchObject({ id: "training.nonfinite_warnings", severity: "medium" });
    expect(nonfiniteLoss.detect(accuracy)).toEqual([]);
    expect(nonfiniteLoss.detect(withLogs("loss_scale: inf", "reducing loss scale to inf"))).toEqual([]);
  });

  it("stays quiet on ordinary Hugging Face, Keras and Lightning log lines", () => {
    for (const name of ["llm-finetune-hf", "tabular-drift-evidently"]) {
      const run = parseTrainingArtifact(sampleTrainingArtifact(name));
      for (const d of [cudaOom, dataloaderErrors, dataloaderBottleneck, nonfiniteWarnings]) expect(d.detect(run)).toEqual([]);
    }
    for (const d of [cudaOom, dataloaderErrors, nonfiniteWarnings]) expect(d.detect(parseTrainingArtifact(sampleTrainingArtifact("full-image-classification")))).toEqual([]);
  });
});
