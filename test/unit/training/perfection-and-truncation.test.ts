import { describe, expect, it } from "vitest";
import { suspiciousPerfection } from "../../../nodes/training/detectors/suspicious-perfection.js";
import { truncatedLog } from "../../../nodes/training/detectors/truncated-log.js";
import { series, trainingRun } from "../../support/training-run.js";

/**
 * What TH-19 and DC-01 report beyond firing (thresholds.test.ts and truncated-log.test.ts have their edges and the
 * real cut files): the AUC reading, the loss's lower bound, the evidence of each, and the wording of a cut log.
 */

describe("TH-19 suspicious_perfection", () => {
  it("reads val AUC like accuracy, and reports where and how high", () => {
    const [f] = suspiciousPerfection.detect(trainingRun({ val_auc: series(20, (i) => (i === 1 ? 0.995 : 0.8 + i / 200)) }));
    expect(f).toMatchObject({ id: "training.suspicious_perfection", severity: "medium", title: "Validation score suspiciously perfect", recommendation: { category: "data" } });
    expect(f!.evidence[0]).toMatchObject({ rule_id: "TH-19", artifact: "training_artifacts.metrics:val/auc", window: [1, 1], observed: 0.995, threshold: 0.99, n_points: 20, values: { final: 0.895 } });
    expect(f!.evidence[0]!.text).toBe("val/auc is 0.995 already at step 1 (evaluation 2 of 20; the first 10 % are checked).");
    expect(f!.description).toMatch(/^val\/auc is 0\.995 already at step 1 \(evaluation 2 of 20; the first 10 % are checked\): a near-perfect/);
  });

  it("checks the first evaluation of a short run", () => {
    expect(suspiciousPerfection.detect(trainingRun({ val_accuracy: [0.99, 0.5, 0.6] }))).toHaveLength(1);
    expect(suspiciousPerfection.detect(trainingRun({ val_accuracy: [0.5, 0.99, 0.6] }))).toEqual([]);
  });

  it("takes a final val loss in [0, 1e-3) as zero, not a negative one", () => {
    const loss = (last: number) => suspiciousPerfection.detect(trainingRun({ val_loss: series(10, (i) => (i === 9 ? last : 1 - i / 20)) }));
    const [f] = loss(0);
    expect(f!.evidence[0]).toMatchObject({ artifact: "training_artifacts.metrics:val/loss", observed: 0, threshold: 1e-3, n_points: 10 });
    expect(f!.evidence[0]!.text).toBe("val/loss ends at 0, essentially zero.");
    expect(loss(-0.0001)).toEqual([]);
  });

  it("collects accuracy, AUC and loss together, more confident with each", () => {
    const early = series(20, (i) => (i === 0 ? 0.999 : 0.9));
    const [f] = suspiciousPerfection.detect(trainingRun({ val_accuracy: early, val_auc: early, val_loss: series(20, (i) => (i === 19 ? 1e-4 : 0.5)) }));
    expect(f!.evidence.map((e) => e.artifact)).toEqual(["training_artifacts.metrics:val/accuracy", "training_artifacts.metrics:val/auc", "training_artifacts.metrics:val/loss"]);
    expect(f!.confidence).toBeGreaterThan(suspiciousPerfection.detect(trainingRun({ val_accuracy: early }))[0]!.confidence);
  });
});

describe("DC-01 truncated_log", () => {
  const cut = (truncated: NonNullable<ReturnType<typeof trainingRun>["meta"]["truncated"]>) => {
    const run = trainingRun({ loss: series(50, (i) => 2 - i / 50) });
    run.meta.truncated = truncated;
    return truncatedLog.detect(run);
  };

  it("describes a cut event file: records read, bytes left, the last step", () => {
    const [f] = cut({ file: "events.out.tfevents.1", unit: "records", recordsRead: 120, bytesLeft: 37 });
    expect(f).toMatchObject({ id: "training.truncated_log", severity: "medium", confidence: 0.9, title: "The metrics log is cut off" });
    const text = "The TensorBoard event file (events.out.tfevents.1) ends partway through a record: 120 complete records were read, 37 bytes after them belong to one cut off.";
    expect(f!.evidence[0]).toMatchObject({ rule_id: "DC-01", artifact: "training_artifacts.metrics", text, observed: 37, threshold: 0, n_points: 120 });
    expect(f!.evidence[0]!.values).toEqual({ file: "events.out.tfevents.1", unit: "records", records_read: 120, bytes_left: 37, last_step_read: 49 });
    expect(f!.description).toBe(`${text} The file was copied while the training was writing it, or the job was killed or ran out of disk: the analysis covers the run up to step 49 only.`);
  });

  it("describes a cut CSV row, one byte, without a file name", () => {
    const [f] = cut({ file: null, unit: "rows", recordsRead: 8, bytesLeft: 1 });
    expect(f!.evidence[0]!.text).toBe("The metrics CSV ends partway through a row: 8 complete rows were read, 1 byte after them belong to one cut off.");
  });

  it("says nothing about a whole log", () => {
    expect(truncatedLog.detect(trainingRun({ loss: [2, 1, 0.5] }))).toEqual([]);
  });
});
