import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { decodeAnalysisRequest, formatPath, RequestDecodeError } from "../../../artifacts/request.js";
import { parseTolerantJson } from "../../../artifacts/tolerant-json.js";

const sample = (name: string) =>
  parseTolerantJson(readFileSync(new URL(`../../fixtures/samples/${name}`, import.meta.url), "utf8"));

const decodeError = (body: unknown) => {
  try {
    decodeAnalysisRequest(body, "r");
  } catch (err) {
    expect(err).toBeInstanceOf(RequestDecodeError);
    return (err as Error).message;
  }
  throw new Error("expected a decode error");
};

describe("decodeAnalysisRequest", () => {
  it("normalizes the current shape with all four artifact kinds", () => {
    const ctx = decodeAnalysisRequest(sample("full-image-classification.json"), "req-1");
    expect(ctx.artifacts.map((a) => a.kind)).toEqual(["dataset", "checks", "training", "checkpoint"]);
    expect(ctx.datasetName).toBe("shelf-products-12");
    expect(ctx.language).toEqual({ code: "en", name: "English" });
    expect(ctx.modelName).toBe("resnet50");
    expect(ctx.strict).toBe(false);
    expect(ctx.requestId).toBe("req-1");
  });

  it("maps the legacy client's deepchecks_artifacts to the checks analyzer and skips null artifacts", () => {
    const ctx = decodeAnalysisRequest(sample("legacy-python-client.json"), "r");
    expect(ctx.artifacts.map((a) => [a.kind, a.field])).toEqual([
      ["dataset", "dataset_artifacts"],
      ["checks", "deepchecks_artifacts"],
    ]);
  });

  it("normalizes the legacy checkpoint {path, config} to checkpoint_path and metadata.config", () => {
    const ctx = decodeAnalysisRequest({ model_checkpoint_artifacts: { path: "runs:/abc/model.ckpt", config: { lr: 0.1 } } }, "r");
    expect(ctx.artifacts[0]!.payload).toEqual({ checkpoint_path: "runs:/abc/model.ckpt", metadata: { config: { lr: 0.1 } } });
  });

  it("rejects an artifact that is not an object, naming the field path", () => {
    expect(decodeError(sample("bad-request.json"))).toBe("training_artifacts: expected object, received string");
  });

  it("names nested paths", () => {
    expect(decodeError({ checks_artifacts: { checks: [{ name: "a" }, 3] } })).toMatch(/^checks_artifacts\.checks\[1\]: expected record/);
  });

  it("rejects a body that is not an object", () => {
    expect(decodeError([1, 2])).toMatch(/^\(body\): expected a JSON object, received array/);
    expect(decodeError(null)).toMatch(/received null/);
  });

  it("refuses checks_artifacts and deepchecks_artifacts together", () => {
    expect(decodeError({ checks_artifacts: { checks: [] }, deepchecks_artifacts: { results: {} } })).toMatch(/not both/);
  });

  it("accepts each MLflow reference form and nothing that names a host", () => {
    expect(decodeAnalysisRequest({ mlflow: { run_id: "abc123" } }, "r").mlflow).toEqual({ run_id: "abc123" });
    expect(decodeAnalysisRequest({ mlflow: { run_uri: "runs:/abc/x/y" } }, "r").mlflow).toEqual({ run_uri: "runs:/abc/x/y" });
    expect(decodeAnalysisRequest({ mlflow: { experiment: "e", run_name: "n" } }, "r").mlflow).toEqual({ experiment: "e", run_name: "n" });
    expect(decodeError({ mlflow: { run_uri: "http://evil.example/api" } })).toMatch(/^mlflow/);
    expect(decodeError({ mlflow: { run_id: "abc", tracking_uri: "http://x" } })).toMatch(/^mlflow/);
  });

  it("keeps unknown extra keys instead of failing", () => {
    const ctx = decodeAnalysisRequest({ training_artifacts: { metrics: { loss: [1, 0.5] }, notes: "x" }, client_version: "2" }, "r");
    expect(ctx.artifacts[0]!.payload.notes).toBe("x");
  });
});

describe("formatPath", () => {
  it("joins keys with dots and indexes with brackets", () => {
    expect(formatPath(["a", "b", 2, "c"])).toBe("a.b[2].c");
    expect(formatPath([])).toBe("(body)");
  });
});

describe("legacy dataset name", () => {
  it("falls back to the dataset_name inside the legacy artifact objects", () => {
    expect(decodeAnalysisRequest({ dataset_artifacts: { dataset_name: "leaves", statistics: { num_train_samples: 3 } } }, "r").datasetName).toBe("leaves");
    expect(decodeAnalysisRequest({ dataset_name: "top", dataset_artifacts: { dataset_name: "inner", statistics: {} } }, "r").datasetName).toBe("top");
  });
});

describe("nesting limit", () => {
  const nested = (depth: number): unknown => {
    let v: unknown = 1;
    for (let i = 0; i < depth; i++) v = [v];
    return v;
  };

  it("refuses values nested deeper than 256 levels, naming where", () => {
    expect(decodeError({ dataset_artifacts: { statistics: { deep: nested(300) } } })).toBe(
      "dataset_artifacts.statistics.deep…: nested deeper than 256 levels",
    );
  });

  it("names the first segments when the deep path has no repeated run", () => {
    let v: unknown = 1;
    for (let i = 0; i < 300; i++) v = i % 2 ? { a: v } : [v];
    expect(decodeError({ dataset_artifacts: { statistics: { deep: v } } })).toMatch(/^dataset_artifacts\.statistics\.deep(\[0\]|\.a)(\[0\]|\.a)(\[0\]|\.a)…: nested deeper than 256 levels$/);
  });

  it("accepts deep but reasonable nesting", () => {
    expect(decodeAnalysisRequest({ dataset_artifacts: { statistics: { deep: nested(200) } } }, "r").artifacts).toHaveLength(1);
  });
});
