import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runDatasetName } from "../../../artifacts/mlflow/locate.js";
import { RunSchema } from "../../../artifacts/mlflow/schemas.js";
import { decodeAnalysisRequest } from "../../../artifacts/request.js";
import { resolveReferences } from "../../../artifacts/resolve.js";
import { loadServiceSettings } from "../../../config/env.js";
import { createLogger } from "../../../config/logger.js";
import { Deadline } from "../../../graph/deadline.js";
import { fakeFetch, json, runAnswer, TRACKING_URI } from "./fake-tracking.js";

const input = (name: string, context?: string) => ({
  tags: context ? [{ key: "mlflow.data.context", value: context }] : [],
  dataset: { name, digest: "ab12", source_type: "local", source: "{}" },
});
const run = (extra: Record<string, unknown>) => RunSchema.parse(runAnswer("r1", extra).run);

describe("runDatasetName", () => {
  it("takes the dataset_name tag first, then the training input, then a lone input", () => {
    expect(runDatasetName(run({ data: { tags: [{ key: "dataset_name", value: "orders" }] }, inputs: { dataset_inputs: [input("x", "training")] } }))).toBe("orders");
    expect(runDatasetName(run({ inputs: { dataset_inputs: [input("eval-set", "eval"), input("train-set", "train")] } }))).toBe("train-set");
    expect(runDatasetName(run({ inputs: { dataset_inputs: [input("only")] } }))).toBe("only");
  });

  it("is null when the run says nothing or leaves it open", () => {
    expect(runDatasetName(run({}))).toBeNull();
    expect(runDatasetName(run({ inputs: { dataset_inputs: [input("a"), input("b")] } }))).toBeNull();
  });
});

describe("a run pulled by id", () => {
  it("names its dataset in the context when the request did not, and keeps the request's own name", async () => {
    const { fetch } = fakeFetch({
      "/api/2.0/mlflow/runs/get": () => json(runAnswer("r1", { data: { metrics: [{ key: "loss", value: 0.5, step: 1 }], tags: [{ key: "dataset_name", value: "orders-returns" }] } })),
      "/api/2.0/mlflow/artifacts/list": () => json({ files: [] }),
      "/api/2.0/mlflow/metrics/get-history": () => json({ metrics: [{ key: "loss", value: 0.9, step: 0 }, { key: "loss", value: 0.5, step: 1 }] }),
    });
    const workspace = await mkdtemp(join(tmpdir(), "run-dataset-name-"));
    try {
      const resolve = (body: unknown) =>
        resolveReferences(decodeAnalysisRequest(body, "r"), {
          settings: loadServiceSettings({ SERVICE_MLFLOW_TRACKING_URI: TRACKING_URI }),
          deadline: new Deadline(),
          workspace,
          logger: createLogger("silent"),
          fetch,
          sleep: async () => undefined,
        });
      expect((await resolve({ mlflow: { run_id: "r1" } })).datasetName).toBe("orders-returns");
      expect((await resolve({ mlflow: { run_id: "r1" }, dataset_name: "mine" })).datasetName).toBe("mine");
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});
