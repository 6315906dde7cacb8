import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { detectTrainingFindings } from "../../../nodes/training/detect.js";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";

/**
 * A metrics log cut off partway (copied while written, a killed job): real event files and CSV logs of the
 * committed framework runs, cut in half. The service reads what is whole and reports the cut as
 * `training.truncated_log`, except while the run is still training.
 */

const EVENTS = readFileSync(new URL("../../fixtures/real/runs/tensorboard-healthy/runs/exp1/events.out.tfevents.1795593186.vm.28385.2", import.meta.url));
const CSV = readFileSync(new URL("../../fixtures/real/runs/lightning-csv-healthy/lightning_logs/version_0/metrics.csv", import.meta.url), "utf8");

const tfevents = (bytes: Buffer, metadata?: Record<string, unknown>) => parseTrainingArtifact({ metrics: { format: "tfevents", content_base64: bytes.toString("base64") }, ...(metadata ? { metadata } : {}) });
const csv = (content: string, metadata?: Record<string, unknown>) => parseTrainingArtifact({ metrics: { format: "lightning_csv", content }, ...(metadata ? { metadata } : {}) });
const truncation = (run: ReturnType<typeof parseTrainingArtifact>) => detectTrainingFindings(run).find((f) => f.id === "training.truncated_log");

describe("a TensorBoard event file cut in half", () => {
  const whole = tfevents(EVENTS);
  const half = tfevents(EVENTS.subarray(0, Math.floor(EVENTS.length / 2)));

  it("is read up to its last whole record, and the cut is measured", () => {
    expect(whole.meta.truncated).toBeUndefined();
    expect(half.meta.truncated).toMatchObject({ file: null, unit: "records" });
    expect(half.meta.truncated!.recordsRead).toBe(half.meta.records);
    expect(half.meta.records).toBeGreaterThan(0.4 * whole.meta.records);
    expect(half.meta.records).toBeLessThan(0.6 * whole.meta.records);
    expect(half.meta.truncated!.bytesLeft).toBeGreaterThan(0);
  });

  it("is a medium finding on data completeness with the records read and the bytes left", () => {
    expect(truncation(whole)).toBeUndefined();
    const f = truncation(half)!;
    expect(f).toMatchObject({ severity: "medium", title: "The metrics log is cut off" });
    expect(f.evidence[0]!.values).toMatchObject({ records_read: half.meta.records, bytes_left: half.meta.truncated!.bytesLeft, unit: "records" });
    expect(f.evidence[0]!.text).toContain(`${half.meta.records} complete records were read`);
  });

  it("one byte short of whole is cut; ending on a record boundary is whole", () => {
    expect(truncation(tfevents(EVENTS.subarray(0, EVENTS.length - 1)))?.evidence[0]!.values).toMatchObject({ bytes_left: expect.any(Number) });
    // The last whole record of the half file ends where its cut tail begins.
    const boundary = Math.floor(EVENTS.length / 2) - half.meta.truncated!.bytesLeft;
    expect(truncation(tfevents(EVENTS.subarray(0, boundary)))).toBeUndefined();
  });

  it("names the file of a multi-file upload", () => {
    const run = parseTrainingArtifact({ metrics: { format: "tfevents", files: [{ path: "train/events.out.tfevents.1", content_base64: EVENTS.subarray(0, 5000).toString("base64") }] } });
    expect(run.meta.truncated).toMatchObject({ file: "train/events.out.tfevents.1" });
    expect(truncation(run)!.evidence[0]!.text).toContain("(train/events.out.tfevents.1)");
  });

  it("is held back while the run is still training: a live file ends mid-record", () => {
    expect(truncation(tfevents(EVENTS.subarray(0, Math.floor(EVENTS.length / 2)), { status: "running" }))).toBeUndefined();
  });
});

describe("a metrics CSV cut mid-line", () => {
  // Inside a number in the second half: the row's later cells are missing and this one is cut short.
  const cutAt = CSV.indexOf("0.", Math.floor(CSV.length / 2)) + 4;
  const cut = CSV.slice(0, cutAt);

  it("leaves the cut row out and reports it with the rows read and the bytes left", () => {
    const run = csv(cut);
    const lastWhole = cut.slice(0, cut.lastIndexOf("\n") + 1);
    expect(run.meta.records).toBe(csv(lastWhole).meta.records);
    const f = truncation(run)!;
    expect(f.severity).toBe("medium");
    expect(f.evidence[0]!.values).toMatchObject({ unit: "rows", records_read: run.meta.records, bytes_left: cut.length - lastWhole.length });
  });

  it("a whole log, or a last line with every cell but no final line break, is not cut", () => {
    expect(truncation(csv(CSV))).toBeUndefined();
    expect(truncation(csv(CSV.trimEnd()))).toBeUndefined();
  });

  it("is held back while the run is still training", () => {
    expect(truncation(csv(cut, { status: "running" }))).toBeUndefined();
  });
});
