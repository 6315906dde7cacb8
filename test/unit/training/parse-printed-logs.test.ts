import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
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
