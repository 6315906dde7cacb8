import { describe, expect, it } from "vitest";
import { AgentResultSchema, severityRank } from "../../../domain/result.js";
import type { DatasetFacts } from "../../../nodes/dataset/facts.js";
import { DatasetFactsSchema } from "../../../nodes/dataset/facts.js";
import { datasetAnalyzer } from "../../../nodes/dataset/node.js";
import { type Analysis, analyzeWith, loadJson } from "./analyze.js";

async function analyzeSample(name: string): Promise<Analysis<DatasetFacts>> {
  const body = loadJson(`samples/${name}.json`);
  return analyzeWith(datasetAnalyzer, body.dataset_artifacts as Record<string, unknown>, "dataset_artifacts", (body.dataset_name as string) ?? null);
}

// What a careful ML engineer concludes from each sample (test/fixtures/samples/README.md), from the dataset side.
describe("dataset analyzer on the sample requests", () => {
  it("full-image-classification: 25:1 imbalance, a val/test class-mix difference, mild test brightness shift", async () => {
    const a = await analyzeSample("full-image-classification");
    expect(a.byId("dataset.class_imbalance")).toMatchObject({ severity: "medium" });
    expect(a.byId("dataset.class_imbalance")!.description).toMatch(/1:25/);
    const shift = a.byId("dataset.split_label_shift")!;
    expect(shift.severity).toBe("high");
    expect(shift.description).toMatch(/Validation does not represent test/);
    expect(a.byId("dataset.covariate_shift")).toMatchObject({ severity: "low" });
    expect(a.byId("dataset.duplicates")).toBeUndefined();
    expect(a.byId("dataset.train_test_overlap")).toBeUndefined();
    expect(a.facts).toMatchObject({ n_train: 9429, n_val: 1180, n_test: 1639, num_classes: 12, imbalance_ratio: 0.04, overlap_fraction: 0 });
    expect(a.facts.split_label_shift).toBeCloseTo(0.283, 3);
    expect(a.result.analyzed_artifacts[0]).toMatch(/rows: 12,248/);
  });

  it("legacy-python-client: covariate shift between lab train photos and field test photos", async () => {
    const a = await analyzeSample("legacy-python-client");
    const shift = a.byId("dataset.covariate_shift")!;
    expect(shift.severity).toBe("medium");
    expect(shift.description).toMatch(/brighter/);
    expect(a.facts).toMatchObject({ n_train: 1840, n_test: 460, modality: "image" });
    expect(a.result.analysis[0]!.findings.severity).toBe("medium");
  });

  it("tabular-healthy: nothing above low (a hard negative)", async () => {
    const a = await analyzeSample("tabular-healthy");
    expect(a.findings.every((f) => severityRank(f.severity) >= severityRank("low"))).toBe(true);
    expect(a.byId("dataset.missing_values")?.severity).toBe("info");
    expect(a.byId("dataset.class_imbalance")).toBeUndefined();
    expect(a.byId("dataset.split_label_shift")).toBeUndefined();
    expect(a.result.severity).toBe("info");
  });

  it("tabular-drift-evidently: last_login_days 40 % missing and a constant country column from describe()", async () => {
    const a = await analyzeSample("tabular-drift-evidently");
    const missing = a.byId("dataset.missing_values")!;
    expect(missing.severity).toBe("medium");
    expect(missing.evidence[0]).toMatchObject({ observed: 0.4, values: { column: "last_login_days" } });
    expect(a.byId("dataset.constant_feature")!.description).toMatch(/"country"/);
    expect(a.facts.constant_columns).toEqual(["country"]);
    expect(a.facts.split_strategy).toMatch(/time-based/);
  });

  it("mlflow-logged-dataset: order_id/customer_id look like identifiers and refund_status may be post-outcome", async () => {
    const a = await analyzeSample("mlflow-logged-dataset");
    expect(a.byId("dataset.id_like_column")!.description).toMatch(/"order_id", "customer_id"/);
    const post = a.byId("dataset.post_outcome_column")!;
    expect(post.description).toMatch(/"refund_status"/);
    expect(post.description).not.toMatch(/prior_returns/);
    expect(a.facts).toMatchObject({ n_train: 49474, target: "returned", id_like_columns: ["order_id", "customer_id"], post_outcome_columns: ["refund_status"] });
  });

  it("produces results and facts that satisfy the published schemas for every sample", async () => {
    for (const name of ["full-image-classification", "legacy-python-client", "tabular-healthy", "tabular-drift-evidently", "mlflow-logged-dataset"]) {
      const a = await analyzeSample(name);
      expect(AgentResultSchema.strict().safeParse(a.result).error?.issues ?? [], name).toEqual([]);
      expect(DatasetFactsSchema.strict().safeParse(a.facts).success, name).toBe(true);
    }
  });
});

describe("dataset analyzer on statistics written by pandas and MLflow", () => {
  it("gives results that satisfy the published schema, every finding with evidence and a recommendation", async () => {
    for (const name of ["pandas-describe-all", "columns-map", "mlflow-logged-dataset"]) {
      const a = await analyzeWith(datasetAnalyzer, loadJson(`dataset/${name}.json`), "dataset_artifacts");
      expect(AgentResultSchema.strict().safeParse(a.result).error?.issues ?? [], name).toEqual([]);
      expect(a.findings.map((f) => f.id), name).toContain("dataset.id_like_column");
      expect(a.findings.every((f) => f.evidence.length > 0 && f.recommendation !== null), name).toBe(true);
    }
  });
});
