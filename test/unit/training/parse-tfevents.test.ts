import { describe, expect, it } from "vitest";
import { crc32c, maskedCrc32c } from "../../../nodes/training/parse/crc32c.js";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";
import { trainingFixture } from "../../support/training-run.js";

const tfevents = (bytes: Buffer) => parseTrainingArtifact({ metrics: { format: "tfevents", content_base64: bytes.toString("base64") } });

describe("TensorBoard event files", () => {
  it("computes CRC-32C (Castagnoli), not zlib's CRC-32", () => {
    expect(crc32c(new TextEncoder().encode("123456789"))).toBe(0xe3069283);
    expect(maskedCrc32c(new Uint8Array(0))).toBe(0xa282ead8);
  });

  it("reads simple_value scalars written by tensorboardX's SummaryWriter (PyTorch style)", () => {
    const run = tfevents(trainingFixture("tensorboardx-simple-value.tfevents"));
    expect(run.format).toBe("tfevents");
    expect([...run.series.keys()]).toEqual(["grad_norm", "lr", "train/loss", "val/loss"]);
    const loss = run.series.get("train/loss")!;
    expect(loss.values).toHaveLength(20);
    expect(loss.steps[19]).toBe(95);
    expect(loss.values[0]).toBeCloseTo(2.6, 5);
    const grad = run.series.get("grad_norm")!;
    expect(Number.isNaN(grad.values[grad.steps.indexOf(60)]!)).toBe(true);
    expect([...run.series.get("val/loss")!.steps]).toEqual([0, 20, 40, 60, 80]);
  });

  it("reads TF2-style scalar tensors (plugin 'scalars', float and double) and skips images and histograms", () => {
    const run = tfevents(trainingFixture("tf2-style-tensor.tfevents"));
    expect([...run.series.keys()]).toEqual(["double_metric", "train/accuracy@epoch", "train/loss@epoch"]);
    expect(run.series.get("train/loss@epoch")!.values[3]).toBeCloseTo(0.25, 6);
    expect(run.series.get("double_metric")!.values[4]).toBe(1);
  });

  it("stops quietly at a truncated last record (a live run) and rejects corrupted data", () => {
    const file = trainingFixture("tensorboardx-simple-value.tfevents");
    const truncated = tfevents(file.subarray(0, file.length - 7));
    expect(truncated.series.get("train/loss")!.values.length).toBeGreaterThan(15);
    const corrupted = Buffer.from(file);
    corrupted[file.length - 10] = corrupted[file.length - 10]! ^ 0xff;
    expect(() => tfevents(corrupted)).toThrow(/checksum mismatch/);
    expect(() => tfevents(Buffer.from("not an event file at all"))).toThrow(/tfevents record at byte 0/);
  });
});
