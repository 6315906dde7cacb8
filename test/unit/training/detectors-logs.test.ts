import { describe, expect, it } from "vitest";
import { cudaOom, dataloaderBottleneck, dataloaderErrors, nonfiniteWarnings } from "../../../nodes/training/detectors/log-events.js";
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

  it("stays quiet on ordinary Hugging Face, Keras and Lightning log lines", () => {
    for (const name of ["llm-finetune-hf", "tabular-drift-evidently"]) {
      const run = parseTrainingArtifact(sampleTrainingArtifact(name));
      for (const d of [cudaOom, dataloaderErrors, dataloaderBottleneck, nonfiniteWarnings]) expect(d.detect(run)).toEqual([]);
    }
    for (const d of [cudaOom, dataloaderErrors, nonfiniteWarnings]) expect(d.detect(parseTrainingArtifact(sampleTrainingArtifact("full-image-classification")))).toEqual([]);
  });
});
