import { describe, expect, it } from "vitest";
import { datasetAnalyzer } from "../../../nodes/dataset/node.js";
import { loadJson, parseWith } from "./analyze.js";

// Fixtures written by pandas and MLflow themselves (scripts/fixtures/dataset_statistics.py).
describe("dataset statistics written by the real tools", () => {
  it("reads pandas describe(include='all') with bare NaN for statistics that do not apply", async () => {
    const stats = await parseWith(datasetAnalyzer, loadJson("dataset/pandas-describe-all.json"), "dataset_artifacts");
    expect(stats.columns).toHaveLength(10);
    const id = stats.columns.find((c) => c.name === "customer_id")!;
    expect(id).toMatchObject({ kind: "categorical", count: 4000, unique: 4000, topFrequency: 1 });
    const tenure = stats.columns.find((c) => c.name === "tenure_months")!;
    expect(tenure).toMatchObject({ kind: "numeric", unique: null, top: null, p50: 37 });
    const login = stats.columns.find((c) => c.name === "last_login_days")!;
    expect(login.missingFraction).toBeCloseTo(0.35, 2);
    expect(stats.columns.find((c) => c.name === "charge_per_call")!.max).toBe(Number.POSITIVE_INFINITY);
    expect(stats.classCounts.all).toBeDefined();
  });

  it("reads the client's columns map computed with pandas", async () => {
    const stats = await parseWith(datasetAnalyzer, loadJson("dataset/columns-map.json"), "dataset_artifacts");
    const login = stats.columns.find((c) => c.name === "last_login_days")!;
    expect(login).toMatchObject({ dtype: "float64", missing: 1400, missingFraction: 0.35 });
    expect(stats.columns.find((c) => c.name === "contract_type")).toMatchObject({ kind: "categorical", top: "month-to-month" });
  });

  it("reads an MLflow logged dataset (mlflow.data.from_pandas(...).to_dict()) with JSON-string schema, profile and source", async () => {
    const stats = await parseWith(datasetAnalyzer, loadJson("dataset/mlflow-logged-dataset.json"), "dataset_artifacts");
    expect(stats.mlflow).toMatchObject({ name: "churn_train", digest: "aee38aa2", sourceType: "http", numRows: 4000, context: "training" });
    expect(stats.mlflow?.source).toMatch(/^https:\/\/data\.example\.org\//);
    expect(stats.numRows).toBe(4000);
    expect(stats.columns.map((c) => c.name)).toContain("customer_id");
    expect(stats.columns.find((c) => c.name === "total_charges")).toMatchObject({ dtype: "double", kind: "numeric", required: false });
    expect(stats.columns[0]!.path).toBe("dataset_artifacts.statistics.mlflow_dataset.schema.mlflow_colspec[0]");
  });

  it("reads an MLflow logged dataset given as the statistics object itself (the sample's shape)", async () => {
    const body = loadJson("samples/mlflow-logged-dataset.json");
    const stats = await parseWith(datasetAnalyzer, body.dataset_artifacts as Record<string, unknown>, "dataset_artifacts");
    expect(stats.mlflow).toMatchObject({ name: "orders_returns_train", sourceType: "s3", numRows: 49474 });
    expect(stats.columns).toHaveLength(12);
    expect(stats.columns.find((c) => c.name === "refund_status")).toMatchObject({ required: false, dtype: "string" });
  });
});
