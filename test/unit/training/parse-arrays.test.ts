import { describe, expect, it } from "vitest";
import { Float64Column } from "../../../artifacts/float64-column.js";
import { parseTrainingArtifact, readsAsColumn } from "../../../nodes/training/parse/index.js";
import { sampleTrainingArtifact, trainingFixture } from "../../support/training-run.js";

describe("metric arrays and MLflow histories", () => {
  it("reads Keras History.history ({name: [values]}, index = epoch)", () => {
    const history = JSON.parse(trainingFixture("keras-history.json").toString("utf8"));
    const run = parseTrainingArtifact({ metrics: history });
    expect(run.format).toBe("metric_arrays");
    expect([...run.series.keys()]).toEqual(["lr", "train/accuracy", "train/loss", "val/accuracy", "val/loss"]);
    const loss = run.series.get("train/loss")!;
    expect(loss.values).toHaveLength(12);
    expect(loss.steps[11]).toBe(11);
    expect(loss.values[0]).toBeCloseTo(0.634, 3);
    expect(run.series.get("val/loss")!.sources).toEqual(["val_loss"]);
  });

  it("reads MLflow metric history from get-history (the tabular-healthy sample)", () => {
    const run = parseTrainingArtifact(sampleTrainingArtifact("tabular-healthy"));
    expect(run.format).toBe("mlflow_history");
    const val = run.series.get("val/loss")!;
    expect(val.values).toHaveLength(37);
    expect(val.steps[36]).toBe(36);
    expect(run.params.restore_best_weights).toBe("True");
    expect(run.series.has("val/auc")).toBe(true);
  });

  it("sorts unordered MLflow points by (step, timestamp), keeps several values per step and NaN/Infinity strings", () => {
    const run = parseTrainingArtifact({
      metrics: {
        val_loss: [
          { key: "val_loss", value: 0.5, step: 2, timestamp: 30 },
          { key: "val_loss", value: "NaN", step: 1, timestamp: 20 },
          { key: "val_loss", value: 0.9, step: 0, timestamp: 10 },
          { key: "val_loss", value: "Infinity", step: 2, timestamp: 25 },
        ],
      },
    });
    const s = run.series.get("val/loss")!;
    expect([...s.steps]).toEqual([0, 1, 2, 2]);
    expect([...s.values]).toEqual([0.9, Number.NaN, Number.POSITIVE_INFINITY, 0.5]);
  });

  it("treats null values as gaps and names a value that is not a number", () => {
    const run = parseTrainingArtifact({ metrics: { loss: [1, null, 0.5] } });
    expect([...run.series.get("train/loss")!.steps]).toEqual([0, 2]);
    expect(() => parseTrainingArtifact({ metrics: { loss: [1, "high"] } })).toThrow(/metrics\.loss\[1\]: expected a number/);
  });

  it("merges raw names that mean the same metric into one series", () => {
    const run = parseTrainingArtifact({ metrics: { val_loss: [{ step: 0, value: 1 }], eval_loss: [{ step: 5, value: 0.8 }] } });
    const s = run.series.get("val/loss")!;
    expect([...s.steps]).toEqual([0, 5]);
    expect(s.sources).toEqual(["eval_loss", "val_loss"]);
  });

  it("reads a number array that came as a Float64Column (nulls as gaps) exactly as the array", () => {
    const loss = Array.from({ length: 3000 }, (_, i) => (i % 97 === 5 ? null : 2 / (i + 1)));
    const acc = Array.from({ length: 3000 }, (_, i) => i / 3000);
    const column = (a: Array<number | null>) => new Float64Column(Float64Array.from(a, (x) => x ?? 0), a.includes(null) ? Uint8Array.from(a, (x) => (x === null ? 1 : 0)) : null);
    // eval_loss and val_loss share a series: the second column is appended to a series that has points already.
    const arrays = { metrics: { val_loss: loss, acc, eval_loss: acc.slice(0, 10), lr: [0.1, null, 0.2] } };
    const columns = { metrics: { val_loss: column(loss), acc: column(acc), eval_loss: column(acc.slice(0, 10)), lr: [0.1, null, 0.2] } };
    expect(parseTrainingArtifact(columns)).toEqual(parseTrainingArtifact(arrays));
  });

  it("gives columns only to the {name: number[]} reader, not to a column table, a trainer state or a content format", () => {
    const at = (metrics: unknown) => readsAsColumn({ metrics }, ["metrics", "loss"]);
    expect(at({ loss: null, acc: null })).toBe(true);
    expect(at({ loss: null, step: null })).toBe(false);
    expect(at({ loss: null, log_history: [] })).toBe(false);
    expect(at({ loss: null, format: "csv" })).toBe(false);
    expect(readsAsColumn({ metrics: { loss: { curve: null } } }, ["metrics", "loss", "curve"])).toBe(false);
    expect(readsAsColumn({ metrics_values: { loss: null } }, ["metrics_values", "loss"])).toBe(false);
  });
});
