import { describe, expect, it } from "vitest";
import { readCsv } from "../../../nodes/training/parse/csv-table.js";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";
import { Prng } from "../../support/prng.js";
import { sampleTrainingArtifact, trainingFixture } from "../../support/training-run.js";

const csv = (format: string, content: string) => parseTrainingArtifact({ metrics: { format, content } });

describe("metrics CSV", () => {
  it("reads Lightning's CSVLogger file (full-image-classification: sorted header, sparse rows, lr rows without epoch)", () => {
    const run = parseTrainingArtifact(sampleTrainingArtifact("full-image-classification"));
    expect(run.format).toBe("lightning_csv");
    expect(run.meta.records).toBe(1950);
    expect([...run.series.keys()]).toEqual(["lr", "train/accuracy@epoch", "train/accuracy@step", "train/loss@epoch", "train/loss@step", "val/accuracy", "val/f1", "val/loss"]);
    const val = run.series.get("val/loss")!;
    expect(val.values).toHaveLength(60);
    expect(val.epochs![23]).toBe(23);
    expect(val.values[23]).toBeCloseTo(0.5524, 4);
    expect(run.series.get("lr")!.values).toHaveLength(60);
    expect(run.logs.counts.dataloader_bottleneck).toBe(2);
  });

  it("reads Lightning ≤ 2.0 files (header in insertion order, nan and inf cells, repeated steps)", () => {
    const run = csv("lightning_csv", "train_loss_step,epoch,step,val_loss,val_acc\n0.91,0,49,,\nnan,0,99,,\n,0,99,inf,0.71\n0.5,1,149,,\n");
    const loss = run.series.get("train/loss@step")!;
    expect([...loss.steps]).toEqual([49, 99, 149]);
    expect(Number.isNaN(loss.values[1]!)).toBe(true);
    expect(run.series.get("val/loss")!.values[0]).toBe(Number.POSITIVE_INFINITY);
  });

  it("reads Keras' CSVLogger file (NA for epochs without validation)", () => {
    const run = csv("keras_csv", trainingFixture("keras-csvlogger.csv").toString("utf8"));
    expect(run.series.get("train/loss")!.values).toHaveLength(12);
    const val = run.series.get("val/loss")!;
    expect([...val.steps]).toEqual([1, 3, 5, 7, 9, 11]);
    expect(val.epochs![0]).toBe(1);
  });

  it("skips a header repeated by append=True, reads ';' separators, quoted array cells as gaps", () => {
    const content = 'epoch;loss;val_loss;confusion\n0;0.9;NA;"[1, 2]"\n1;0.7;0.8;"[3, 4]"\nepoch;loss;val_loss;confusion\n2;0.6;0.75;"[5, 6]"\r\n';
    const run = csv("keras_csv", content);
    expect([...run.series.get("train/loss")!.steps]).toEqual([0, 1, 2]);
    expect([...run.series.get("val/loss")!.values]).toEqual([0.8, 0.75]);
    expect(run.series.has("confusion")).toBe(false);
  });

  it("reads a pandas History export (empty cells for NaN, epoch index column)", () => {
    const run = csv("csv", trainingFixture("pandas-history.csv").toString("utf8"));
    expect(run.series.get("val/loss")!.values).toHaveLength(6);
    expect(run.series.get("lr")!.values[0]).toBeCloseTo(0.01, 6);
  });

  it("reads a long CSV (key, value, step, timestamp) as MLflow exports it", () => {
    const run = csv("csv", "key,value,step,timestamp\nval_loss,0.5,1,20\ntrain_loss,0.7,0,10\nval_loss,0.6,0,11\n");
    expect([...run.series.get("val/loss")!.values]).toEqual([0.6, 0.5]);
  });

  it("is an analyzer error when no column is numeric", () => {
    expect(() => csv("csv", "epoch,note\n0,start\n1,end\n")).toThrow(/no numeric metric/);
  });
});

describe("CSV rows without quotes", () => {
  /** What the reader gives each line: its cells as `split` cuts them, blank lines and the header's trim aside. */
  const rowsOf = (text: string) => {
    const rows: string[][] = [];
    readCsv(text, (header) => {
      rows.push(header);
      return (cells) => rows.push(cells);
    });
    return rows;
  };
  const splitRows = (text: string, delimiter: string) => {
    const lines = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
    if (text.endsWith("\n")) lines.pop();
    const rows = lines.map((l) => l.split(delimiter)).filter((cells) => !(cells.length === 1 && cells[0]!.trim() === ""));
    return rows.map((cells, i) => (i === 0 ? cells.map((h) => h.trim()) : cells));
  };

  it("cuts every line as split does: empty and trailing cells, CRLF, blank lines, each delimiter (2,000 random files)", () => {
    const prng = new Prng(18);
    const pieces = ["", "", "0.5", "nan", " 12 ", "1e-05", "x", "\r\n", "\n", "\n\n", " "];
    for (let i = 0; i < 2000; i++) {
      const delimiter = prng.pick([",", ";", "\t", "|"]);
      const header = Array.from({ length: prng.int(2, 5) }, (_, j) => `m${j}`).join(delimiter);
      let text = `${header}\n`;
      for (let k = prng.int(0, 30); k > 0; k--) text += prng.chance(0.3) ? prng.pick(pieces) : `${prng.pick(pieces)}${delimiter}`;
      expect(rowsOf(text)).toEqual(splitRows(text, delimiter));
    }
  });
});
