import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";

/** JSON lines and the CSV layouts of Ultralytics, timm and fastai, as the libraries wrote them (test/fixtures/real/textlogs). */

const T = "test/fixtures/real/textlogs";
const read = (path: string) => readFileSync(`${T}/${path}`, "utf8");
const jsonl = (path: string) => parseTrainingArtifact({ metrics: { format: "jsonl", content: read(path) } });
const csv = (path: string) => parseTrainingArtifact({ metrics: { format: "csv", content: read(path) } });

describe("JSON lines", () => {
  it("reads a custom loop's metrics.jsonl as wide rows, step as the x axis and the epoch kept", () => {
    const run = jsonl("jsonl/healthy.metrics.jsonl");
    expect(run.format).toBe("jsonl");
    expect([...run.series.keys()]).toEqual(["lr", "train/loss", "val/accuracy", "val/loss"]);
    const val = run.series.get("val/loss")!;
    expect([...val.steps]).toEqual([12, 24, 36, 48, 60, 72, 84, 96]);
    expect([...val.epochs!]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("keeps the bare NaN json.dumps writes once a run diverged", () => {
    const run = jsonl("jsonl/diverges.log.jsonl");
    const loss = [...run.series.get("train/loss")!.values];
    expect(loss.some(Number.isNaN)).toBe(true);
    expect(Number.isNaN(loss.at(-1)!)).toBe(true);
  });

  it("skips a half-written last line instead of failing the whole log", () => {
    const text = read("jsonl/healthy.metrics.jsonl");
    const cut = text.slice(0, text.trimEnd().lastIndexOf("\n") + 20);
    const run = parseTrainingArtifact({ metrics: { format: "jsonl", content: cut } });
    expect(run.series.get("val/loss")!.values.length).toBe(7);
  });

  it("refuses JSON lines without a single metric", () => {
    expect(() => parseTrainingArtifact({ metrics: { format: "jsonl", content: '{"event": "start"}\n' } })).toThrow(/no numeric metric/);
  });
});

describe("CSV layouts", () => {
  it("timm's summary.csv: eval_ columns are the validation split, top-1 kept apart from accuracy (a percentage)", () => {
    const run = csv("csv/timm/summary.csv");
    expect([...run.series.keys()]).toEqual(["lr", "train/loss", "val/loss", "val/top1", "val/top5"]);
    expect([...run.series.get("val/loss")!.steps]).toEqual([0, 1, 2, 3, 4, 5]);
    expect(Math.max(...run.series.get("val/top1")!.values)).toBeGreaterThan(1);
  });
});

describe("fastai's CSVLogger", () => {
  it("reads its bare metrics as the validation metrics they are, `time` (mm:ss) as no metric", () => {
    const run = csv("csv/fastai/history.csv");
    expect([...run.series.keys()]).toEqual(["train/loss", "val/accuracy", "val/error", "val/loss"]);
    expect(run.series.get("val/error")!.sources).toEqual(["valid_error_rate"]);
  });
});

describe("Ultralytics' results.csv", () => {
  it("box_loss as each split's loss, the other loss terms apart, metrics/…(B) as validation metrics, lr/pg* as the lr", () => {
    const run = csv("csv/ultralytics/results.csv");
    expect([...run.series.keys()]).toEqual([
      "lr", "train/cls_loss", "train/dfl_loss", "train/loss", "val/cls_loss", "val/dfl_loss", "val/loss", "val/map50", "val/map50_95", "val/precision", "val/recall",
    ]);
    expect(run.series.get("train/loss")!.sources).toEqual(["train/box_loss"]);
    expect([...run.series.get("val/map50_95")!.steps]).toEqual([1, 2, 3]);
  });
});
