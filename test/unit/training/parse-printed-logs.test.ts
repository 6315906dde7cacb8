import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { trainingAnalyzer } from "../../../nodes/training/node.js";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";
import { screenSegments } from "../../../nodes/training/parse/log-series.js";

/** Metric series read from what the real libraries printed (test/fixtures/real/textlogs/logs). */

const T = "test/fixtures/real/textlogs";
const read = (path: string) => readFileSync(`${T}/${path}`, "utf8");
const printed = (name: string) => parseTrainingArtifact({ logs: read(`logs/${name}`) });
const values = (run: ReturnType<typeof printed>, name: string) => [...(run.series.get(name)?.values ?? [])];

describe("printed Keras logs", () => {
  it("verbose=2: one point per epoch from the line after `Epoch n/60`, the epoch kept", () => {
    const run = printed("keras-fit-verbose2.log");
    expect(run.format).toBe("printed_log");
    expect([...run.series.keys()]).toEqual(["train/accuracy", "train/loss", "val/accuracy", "val/loss"]);
    const val = run.series.get("val/loss")!;
    expect([...val.steps]).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect([...val.epochs!]).toEqual([...val.steps]);
    // The planted fault is there to be found: val_loss ends more than twice its best.
    expect(val.values[59]!).toBeGreaterThan(2 * Math.min(...val.values));
  });

  it("verbose=1: of the progress bar's \\b and \\r redraws in colour, each epoch's last, equal to the CSVLogger's row", () => {
    const run = printed("keras-fit-verbose1.log");
    const csv = parseTrainingArtifact({ metrics: { format: "keras_csv", content: read("runs/keras-healthy/history.csv") } });
    for (const name of ["train/loss", "train/accuracy", "val/loss", "val/accuracy"]) {
      const fromLog = values(run, name);
      const fromCsv = values(csv, name);
      expect(fromLog).toHaveLength(15);
      fromLog.forEach((v, i) => expect(v).toBeCloseTo(fromCsv[i]!, 3));
    }
    expect(run.meta.logSeries).toEqual({ records: 15, styles: ["keras"] });
  });

  it("splits a printed line into what a terminal showed: colours gone, every redraw a segment", () => {
    const line = read("logs/keras-fit-verbose1.log").split("\n")[1]!;
    const segments = screenSegments(line);
    expect(segments.length).toBeGreaterThan(5);
    expect(segments.every((s) => !s.includes("\u001b") && !s.includes("\b"))).toBe(true);
    expect(segments.at(-1)).toMatch(/^\s*\d+\/19 .* - accuracy: [\d.]+ - loss: [\d.]+/);
  });
});

describe("printed logs of Hugging Face, Lightning and custom loops", () => {
  it("Trainer's printed dicts (values as strings in transformers 5): train points at fractional epochs, eval at each epoch, no closing summary", () => {
    const run = printed("hf-trainer.log");
    expect([...run.series.keys()]).toEqual(["grad_norm", "lr", "train/loss", "val/accuracy", "val/loss"]);
    const train = run.series.get("train/loss")!;
    // 80 steps logged every 5: 16 points, the last at epoch 4; the closing {'train_runtime': …, 'train_loss': …} is not one.
    expect(train.values.length).toBe(16);
    expect(train.steps[0]).toBe(0.25);
    expect([...run.series.get("val/loss")!.steps]).toEqual([1, 2, 3, 4]);
    expect(run.meta.logSeries?.styles).toEqual(["hf_trainer"]);
  });

  it("Lightning's TQDM bar: each epoch's last redraw, its postfix's train and validation metrics, v_num left out", () => {
    const run = printed("lightning-bar.log");
    expect([...run.series.keys()]).toEqual(["train/loss", "val/accuracy", "val/loss"]);
    const val = run.series.get("val/loss")!;
    expect([...val.epochs!]).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // The bar's last redraw of epoch 0 already shows epoch 0's validation, not a stale or empty one.
    const text = read("logs/lightning-bar.log");
    const firstVal = /Epoch 0: 100%[^\r\n]*val_loss=([\d.]+)/.exec(text)![1]!;
    expect(val.values[0]).toBeCloseTo(Number(firstVal), 3);
  });

  it("a custom loop: `key=value` prints glued to a tqdm bar on stderr, epoch summaries placed at the step training reached", () => {
    const run = printed("custom-loop-healthy.log");
    const train = run.series.get("train/loss")!;
    expect(train.steps[0]).toBe(4);
    expect([...train.steps].every((s, i) => i === 0 || s > train.steps[i - 1]!)).toBe(true);
    expect([...run.series.get("val/loss")!.steps]).toEqual([12, 24, 36, 48, 60, 72, 84, 96]);
    expect(run.meta.logSeries?.styles).toEqual(expect.arrayContaining(["key_value", "progress_bar"]));
  });

  it("says so when no line can be read as metrics, and still reads the log's events", () => {
    const run = parseTrainingArtifact({ logs: read("logs/lightning-bar.log").split("\n").filter((l) => !/loss|acc/.test(l)).join("\n") });
    expect(run.format).toBe("logs_only");
    expect(run.series.size).toBe(0);
    expect(trainingAnalyzer.describe(run)[0]).toMatch(/no metric series could be read from them/);
    expect(trainingAnalyzer.describe(printed("lightning-bar.log"))[0]).toMatch(/metric series read from 8 of them, printed in the progress_bar style: 3 series/);
  });
});

describe("printed mmengine logs and a diverging custom loop", () => {
  it("mmengine: train lines at (epoch − 1)·n + i, val lines named by their mode, timings left out", () => {
    const run = printed("mmengine.log");
    expect([...run.series.keys()]).toEqual(["lr", "train/loss", "val/top1"]);
    const loss = run.series.get("train/loss")!;
    expect([...loss.steps.slice(0, 4)]).toEqual([5, 10, 15, 21]);
    expect(run.series.get("val/top1")!.steps[0]).toBe(15);
  });

  it("a loop at lr 40: the printed loss goes to nan as its JSON lines do", () => {
    const fromLog = printed("custom-loop-diverges.log").series.get("val/loss")!;
    const fromJsonl = parseTrainingArtifact({ metrics: { format: "jsonl", content: read("jsonl/diverges.log.jsonl") } }).series.get("val/loss")!;
    expect([...fromLog.steps]).toEqual([...fromJsonl.steps]);
    expect(Number.isNaN(fromLog.values.at(-1)!)).toBe(true);
    expect(fromLog.values.findIndex(Number.isNaN)).toBe(fromJsonl.values.findIndex(Number.isNaN));
  });
});

describe("console tables: fastai and Ultralytics", () => {
  it("fastai's progress table reads as its CSVLogger file", () => {
    const run = printed("fastai-history.log");
    const file = parseTrainingArtifact({ metrics: { format: "csv", content: read("csv/fastai/history.csv") } });
    expect([...run.series.keys()]).toEqual([...file.series.keys()]);
    for (const name of run.series.keys()) values(run, name).forEach((v, i) => expect(v).toBeCloseTo(values(file, name)[i]!, 5));
  });

  it("Ultralytics' console: the train row of each epoch and its `all` validation row, as results.csv has them", () => {
    const run = printed("ultralytics.log");
    const file = parseTrainingArtifact({ metrics: { format: "csv", content: read("csv/ultralytics/results.csv") } });
    for (const name of ["train/loss", "train/cls_loss", "train/dfl_loss"]) values(run, name).forEach((v, i) => expect(v).toBeCloseTo(values(file, name)[i]!, 3));
    expect([...run.series.get("val/map50_95")!.steps]).toEqual([1, 2, 3]);
  });
});
