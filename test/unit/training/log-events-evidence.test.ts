import { describe, expect, it } from "vitest";
import { cudaOom, dataloaderBottleneck, dataloaderErrors, nonfiniteWarnings } from "../../../nodes/training/detectors/log-events.js";
import { trainingRun } from "../../support/training-run.js";

/** What the log-event detectors quote and count (detectors-logs.test.ts has which lines each recognizes). */

describe("log-event detectors", () => {
  const withLogs = (...logs: string[]) => trainingRun({ loss: [2, 1.5, 1.2, 1, 0.9] }, { logs });
  const oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.";

  it("quotes the first three lines with their 1-based numbers and the count", () => {
    const run = withLogs("epoch 1", oom, oom, "epoch 2", oom, oom);
    const [f] = cudaOom.detect(run);
    expect(f).toMatchObject({ severity: "high", confidence: 0.9, title: "GPU out of memory", recommendation: { category: "infrastructure" } });
    expect(f!.description).toBe("The training logs contain 4 such line(s): the GPU ran out of memory, so the run crashed or had to retry with other settings.");
    expect(f!.evidence).toHaveLength(3);
    expect(f!.evidence.map((e) => e.values?.line)).toEqual([2, 3, 5]);
    expect(f!.evidence[0]).toMatchObject({ rule_id: "LOG", artifact: "training_artifacts.logs", observed: 4, threshold: 0, text: `Line 2: "${oom}"` });
  });

  it("is less confident about a single line", () => {
    expect(cudaOom.detect(withLogs(oom))[0]!.confidence).toBe(0.8);
  });

  it("each reports only its own kind", () => {
    const run = withLogs(oom);
    expect(dataloaderErrors.detect(run)).toEqual([]);
    expect(dataloaderBottleneck.detect(run)).toEqual([]);
    expect(nonfiniteWarnings.detect(run)).toEqual([]);
    expect(cudaOom.info).toMatchObject({ rule: "LOG", severities: ["high"] });
    expect(dataloaderBottleneck.info.severities).toEqual(["low"]);
    expect(nonfiniteWarnings.info.severities).toEqual(["medium"]);
  });
});
