import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { evalSetNames } from "../../../nodes/training/parse/boosting.js";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";

const last = (s: { values: Float64Array }) => s.values[s.values.length - 1]!;

const B = "test/fixtures/real/textlogs/boosting";
const json = (name: string) => JSON.parse(readFileSync(`${B}/${name}`, "utf8")) as unknown;
const text = (name: string) => readFileSync(`${B}/${name}`, "utf8");

describe("boosting histories written by XGBoost, LightGBM and CatBoost", () => {
  it("reads LightGBM's evals_result_ with the boosting round as the x axis", () => {
    const run = parseTrainingArtifact({ metrics: json("lightgbm-overfit.evals_result.json") });
    expect(run.format).toBe("evals_result");
    expect([...run.series.keys()]).toEqual(["train/auc", "train/loss", "val/auc", "val/loss"]);
    const val = run.series.get("val/loss")!;
    expect(val.sources).toEqual(["valid-binary_logloss"]);
    expect(val.steps[0]).toBe(0);
    expect(val.steps.length).toBe(150);
    // The overfitting run: validation log-loss ends far above where it started.
    expect(last(val)).toBeGreaterThan(val.values[0]! * 2);
  });

  it("reads XGBoost's last eval_set as the validation split when the training data came first", () => {
    const run = parseTrainingArtifact({ metrics: json("xgboost-healthy.evals_result.json") });
    expect(run.series.get("val/loss")!.sources).toEqual(["validation_1-logloss"]);
    expect(run.series.get("val_1/loss")!.sources).toEqual(["validation_0-logloss"]);
    expect(run.series.get("val/error")!.quantity).toBe("error");
  });

  it("names eval sets in XGBoost's early-stopping order", () => {
    expect(Object.fromEntries(evalSetNames(["validation_0", "validation_1"]))).toEqual({ validation_0: "validation_1", validation_1: "validation_0" });
    expect(Object.fromEntries(evalSetNames(["validation_0"]))).toEqual({ validation_0: "validation_0" });
    expect(Object.fromEntries(evalSetNames(["train", "eval"]))).toEqual({ train: "train", eval: "eval" });
  });

  it("reads the native API's train/eval regression metrics", () => {
    const run = parseTrainingArtifact({ metrics: json("xgboost-native-regression.evals_result.json") });
    expect([...run.series.keys()]).toEqual(["train/mae", "train/rmse", "val/mae", "val/rmse"]);
  });

  it("reads CatBoost's learn_error.tsv and test_error.tsv as train and validation, iter as the round", () => {
    const dir = `${B}/catboost-overfit/catboost_info`;
    const files = ["learn_error.tsv", "test_error.tsv"].map((path) => ({ path, content: readFileSync(`${dir}/${path}`, "utf8") }));
    const run = parseTrainingArtifact({ metrics: { format: "catboost_tsv", files } });
    expect([...run.series.keys()]).toEqual(["train/accuracy", "train/loss", "val/accuracy", "val/loss"]);
    const fromJson = parseTrainingArtifact({ metrics: json("catboost-overfit.evals_result.json") });
    // The TSV and get_evals_result() hold the same history.
    expect(run.series.get("val/loss")!.values.length).toBe(fromJson.series.get("val/loss")!.values.length);
    expect(last(run.series.get("val/loss")!)).toBeCloseTo(last(fromJson.series.get("val/loss")!), 6);
    expect(() => parseTrainingArtifact({ metrics: { format: "catboost_tsv", files: [{ path: "time_left.tsv", content: "iter\tPassed\n0\t1\n" }] } })).toThrow(
      /files\[0\]\.path: expected learn_error\.tsv or test_error\.tsv/,
    );
  });

  it.each([
    ["xgboost-overfit.log", ["val/auc", "val/loss"], 150],
    ["lightgbm-overfit.log", ["train/auc", "train/loss", "val/auc", "val/loss"], 150],
    ["lightgbm-healthy.log", ["val/error", "val/loss"], 6],
    ["catboost-overfit.log", ["train/loss", "val/loss"], 21],
  ])("reads the rounds %s printed", (name, series, points) => {
    const run = parseTrainingArtifact({ logs: text(name) });
    expect(run.format).toBe("printed_log");
    expect([...run.series.keys()]).toEqual(series);
    expect(run.series.get("val/loss")!.values.length).toBe(points);
    expect(run.meta.logSeries?.styles).toEqual(["boosting"]);
  });

  it("finds the same history in XGBoost's printed rounds as in its evals_result", () => {
    const printed = parseTrainingArtifact({ logs: text("xgboost-overfit.log") }).series.get("val/loss")!;
    const stored = parseTrainingArtifact({ metrics: json("xgboost-overfit.evals_result.json") }).series.get("val/loss")!;
    expect([...printed.steps]).toEqual([...stored.steps]);
    printed.values.forEach((v, i) => expect(v).toBeCloseTo(stored.values[i]!, 4));
  });
});
