import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { equals, findDatasetRun, locateRun, parseRunsUri } from "../../../artifacts/mlflow/locate.js";
import { decodeAnalysisRequest } from "../../../artifacts/request.js";
import { needsTrackingServer, resolveReferences } from "../../../artifacts/resolve.js";
import { loadServiceSettings } from "../../../config/env.js";
import { createLogger } from "../../../config/logger.js";
import { Deadline } from "../../../graph/deadline.js";
import { fakeClient, fakeFetch, json, runAnswer, TRACKING_URI } from "./fake-tracking.js";

const settings = (env: Record<string, string> = { SERVICE_MLFLOW_TRACKING_URI: TRACKING_URI }) => loadServiceSettings(env);
const logger = createLogger("silent");
const noNetwork = (() => {
  throw new Error("no network call expected");
}) as unknown as typeof fetch;

let workspace: string;
beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "resolve-test-"));
});
afterEach(() => rm(workspace, { recursive: true, force: true }));

const resolve = (body: unknown, env?: Record<string, string>, fetchImpl: typeof globalThis.fetch = noNetwork) =>
  resolveReferences(decodeAnalysisRequest(body, "req-1"), { settings: settings(env), deadline: new Deadline(), workspace, logger, fetch: fetchImpl, sleep: async () => undefined });

describe("resolveReferences", () => {
  it("passes a context that names nothing on the server through untouched, without a network call", async () => {
    const body = { dataset_name: "d", training_artifacts: { metrics: { loss: [1, 0.5] } } };
    const context = decodeAnalysisRequest(body, "req-1");
    const out = await resolveReferences(context, { settings: settings(), deadline: new Deadline(), workspace, logger, fetch: noNetwork });
    expect(out).toBe(context);
    // Without a server, a checkpoint URI stays metadata-only and a bare dataset name is not looked up.
    expect(await resolve({ model_checkpoint_artifacts: { checkpoint_path: "runs:/abc/model.ckpt" } }, {})).toMatchObject({ artifacts: [{ kind: "checkpoint" }] });
    expect(needsTrackingServer(decodeAnalysisRequest({ dataset_name: "d" }, "r"), settings({}))).toBe(false);
    expect(needsTrackingServer(decodeAnalysisRequest({ dataset_name: "d" }, "r"), settings())).toBe(true);
  });

  it("answers 400 MLFLOW_NOT_CONFIGURED for an mlflow reference when no tracking server is configured", async () => {
    await expect(resolve({ mlflow: { run_id: "abc" } }, {})).rejects.toMatchObject({
      code: "MLFLOW_NOT_CONFIGURED",
      status: 400,
      message: expect.stringContaining("SERVICE_MLFLOW_TRACKING_URI is unset"),
    });
  });

  it("pulls only the kinds not sent inline, and keeps the inline ones first", async () => {
    const { fetch, seen } = fakeFetch({
      "/api/2.0/mlflow/runs/get": () =>
        json(
          runAnswer("r1", {
            data: { metrics: [{ key: "loss", value: 0.5, step: 1 }] },
            inputs: { dataset_inputs: [{ tags: [], dataset: { name: "train", digest: "ab12", source_type: "local", source: "{}", profile: "{}" } }] },
          }),
        ),
      "/api/2.0/mlflow/artifacts/list": () => json({ files: [] }),
      "/api/2.0/mlflow/metrics/get-history": () => json({ metrics: [{ key: "loss", value: 0.9, step: 0 }, { key: "loss", value: 0.5, step: 1 }] }),
    });
    const out = await resolve({ mlflow: { run_id: "r1" }, dataset_artifacts: { statistics: { num_rows: 5 } } }, undefined, fetch);
    expect(out.artifacts.map((a) => [a.kind, a.origin])).toEqual([
      ["dataset", "inline"],
      ["training", "mlflow"],
    ]);
    expect(out.artifacts[1]!.payload.metrics).toEqual({ loss: [{ step: 0, value: 0.9 }, { step: 1, value: 0.5 }] });
    expect(seen.map((r) => r.path).sort()).toEqual(["/api/2.0/mlflow/artifacts/list", "/api/2.0/mlflow/metrics/get-history", "/api/2.0/mlflow/runs/get", "/version"]);
  });

  it("does not contact the server at all when every kind was sent inline", async () => {
    const body = {
      mlflow: { run_id: "r1" },
      dataset_artifacts: { statistics: { num_rows: 1 } },
      checks_artifacts: { checks: [{ name: "a", status: "pass" }] },
      training_artifacts: { metrics: { loss: [1] } },
      model_checkpoint_artifacts: { metadata: { framework: "pytorch" } },
    };
    expect((await resolve(body)).artifacts.every((a) => a.origin === "inline")).toBe(true);
  });

  it("answers 404 naming the run when it holds nothing an analyzer can use", async () => {
    const { fetch } = fakeFetch({
      "/api/2.0/mlflow/runs/get": () => json(runAnswer("r1")),
      "/api/2.0/mlflow/artifacts/list": () => json({ files: [{ path: "notes.md", is_dir: false, file_size: 3 }] }),
    });
    await expect(resolve({ mlflow: { run_id: "r1" } }, undefined, fetch)).rejects.toMatchObject({
      code: "MLFLOW_NOT_FOUND",
      message: expect.stringMatching(/^no analyzable artifact found in run 'r1' on the tracking server http:\/\/127\.0\.0\.1:5999/),
    });
  });
});

describe("locating the run", () => {
  it("splits runs:/ URIs into run id and sub-path", () => {
    expect(parseRunsUri("runs:/abc")).toEqual({ runId: "abc", path: "" });
    expect(parseRunsUri("runs:/abc/lightning_logs/version_0/")).toEqual({ runId: "abc", path: "lightning_logs/version_0" });
  });

  it("quotes filter values with whichever quote they do not contain", () => {
    expect(equals("tags.dataset_name", "churn")).toBe("tags.dataset_name = 'churn'");
    expect(equals("tags.dataset_name", "bob's")).toBe(`tags.dataset_name = "bob's"`);
    expect(equals("tags.dataset_name", `a'b"c`)).toBeNull();
  });

  it("treats a deleted run as not found", async () => {
    const { fetch } = fakeFetch({ "/api/2.0/mlflow/runs/get": () => json(runAnswer("r1", { info: { run_id: "r1", experiment_id: "1", lifecycle_stage: "deleted" } })) });
    await expect(locateRun(fakeClient(fetch), { run_id: "r1" }, null)).rejects.toMatchObject({ code: "MLFLOW_NOT_FOUND", message: expect.stringContaining("run 'r1' is deleted") });
  });

  it("picks the latest finished run among those tagged, named or fed a dataset of that name, across experiments", async () => {
    const started: Record<string, number> = { "tags.dataset_name = 'churn'": 100, "attributes.run_name = 'churn'": 300, "datasets.name = 'churn'": 200 };
    const { fetch, seen } = fakeFetch({
      "/api/2.0/mlflow/experiments/search": () => json({ experiments: [{ experiment_id: "0", name: "Default" }, { experiment_id: "7", name: "x" }] }),
      "/api/2.0/mlflow/runs/search": (req) => {
        const filter = String(req.body.filter).replace("attributes.status = 'FINISHED' and ", "");
        const at = started[filter]!;
        return json({ runs: [{ info: { run_id: `run-${at}`, experiment_id: "7", start_time: at } }] });
      },
    });
    expect((await findDatasetRun(fakeClient(fetch), "churn")).info.run_id).toBe("run-300");
    const searches = seen.filter((r) => r.path.endsWith("runs/search"));
    expect(searches.map((r) => r.body.experiment_ids)).toEqual([["0", "7"], ["0", "7"], ["0", "7"]]);
    expect(searches.every((r) => r.body.filter.startsWith("attributes.status = 'FINISHED' and ") && r.body.order_by[0] === "attributes.start_time DESC")).toBe(true);
  });
});
