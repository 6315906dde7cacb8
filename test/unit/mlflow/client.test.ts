import { describe, expect, it } from "vitest";
import { proxiedRoot } from "../../../artifacts/mlflow/client.js";
import { walkFiles } from "../../../artifacts/mlflow/files.js";
import { GetRunResponse, SearchRunsResponse } from "../../../artifacts/mlflow/schemas.js";
import { bytes, fakeClient, fakeFetch, json, runAnswer } from "./fake-tracking.js";

describe("MLflow JSON shapes", () => {
  it("turns the NaN/Infinity strings of protobuf doubles into numbers and int64 strings into numbers", () => {
    const run = GetRunResponse.parse(
      runAnswer("r1", {
        data: {
          metrics: [
            { key: "a", value: "NaN", timestamp: "1717000000000", step: "3" },
            { key: "b", value: "Infinity", timestamp: 1, step: 0 },
            { key: "c", value: "-Infinity" },
          ],
        },
      }),
    ).run;
    const [a, b, c] = run.data.metrics;
    expect(a).toMatchObject({ value: Number.NaN, timestamp: 1717000000000, step: 3 });
    expect(b!.value).toBe(Number.POSITIVE_INFINITY);
    expect(c).toMatchObject({ value: Number.NEGATIVE_INFINITY, step: 0 });
  });

  it("reads an empty search answer `{}` as no runs, and an old run_uuid-only run by its uuid", () => {
    expect(SearchRunsResponse.parse({}).runs).toEqual([]);
    const run = GetRunResponse.parse({ run: { info: { run_uuid: "u1", experiment_id: "0" } } }).run;
    expect(run.info.run_id).toBe("u1");
    expect(run.outputs.model_outputs).toEqual([]);
    expect(run.inputs.dataset_inputs).toEqual([]);
  });
});

describe("MLflow client", () => {
  it("follows runs/search page tokens (POST) until the limit or the last page", async () => {
    const pages: Record<string, unknown> = {
      "": { runs: [runAnswer("r1").run], next_page_token: "p2" },
      p2: { runs: [runAnswer("r2").run], next_page_token: "p3" },
      p3: { runs: [runAnswer("r3").run] },
    };
    const { fetch, seen } = fakeFetch({ "/api/2.0/mlflow/runs/search": (req) => json(pages[req.body.page_token ?? ""]) });
    const client = fakeClient(fetch);
    expect((await client.searchRuns({ experimentIds: ["1"], filter: "tags.a = 'b'" })).map((r) => r.info.run_id)).toEqual(["r1", "r2", "r3"]);
    expect(seen[0]).toMatchObject({ method: "POST", body: { experiment_ids: ["1"], filter: "tags.a = 'b'", run_view_type: "ACTIVE_ONLY" } });
    expect((await client.searchRuns({ experimentIds: ["1"], limit: 2 })).map((r) => r.info.run_id)).toEqual(["r1", "r2"]);
    expect(seen.length).toBe(5);
  });

  it("reads a whole metric history, following a page token if the server sends one, and stops on a repeated token", async () => {
    const { fetch, seen } = fakeFetch({
      "/api/2.0/mlflow/metrics/get-history": (req) =>
        req.query.get("page_token")
          ? json({ metrics: [{ key: "loss", value: 0.5, step: 1 }], next_page_token: "t1" })
          : json({ metrics: [{ key: "loss", value: "NaN", step: 0 }], next_page_token: "t1" }),
    });
    const points = await fakeClient(fetch).metricHistory("r1", "loss");
    expect(points.map((p) => [p.step, p.value])).toEqual([[0, Number.NaN], [1, 0.5]]);
    expect(seen.map((r) => r.query.get("max_results"))).toEqual([null, "25000"]);
  });

  it("walks directories one level per call, as open-source MLflow lists them, following page tokens", async () => {
    const tree: Record<string, unknown> = {
      "": { files: [{ path: "a", is_dir: true }, { path: "top.json", is_dir: false, file_size: 3 }] },
      a: { files: [{ path: "a/b", is_dir: true }], next_page_token: "more" },
      "a#more": { files: [{ path: "a/x.csv", is_dir: false, file_size: 5 }] },
      "a/b": { files: [{ path: "a/b/c.ckpt", is_dir: false, file_size: 9 }] },
    };
    const { fetch } = fakeFetch({
      "/api/2.0/mlflow/artifacts/list": (req) => {
        const key = `${req.query.get("path") ?? ""}${req.query.get("page_token") ? `#${req.query.get("page_token")}` : ""}`;
        return json({ root_uri: "mlflow-artifacts:/1/r1/artifacts", ...(tree[key] as object) });
      },
    });
    const source = fakeClient(fetch).runArtifacts({ run_id: "r1", artifact_uri: "mlflow-artifacts:/1/r1/artifacts" });
    expect((await walkFiles(source)).map((f) => f.path).sort()).toEqual(["a/b/c.ckpt", "a/x.csv", "top.json"]);
    expect((await walkFiles(source, "a/b/c.ckpt")).map((f) => f.path)).toEqual(["a/b/c.ckpt"]);
    await expect(walkFiles(source, "a/nope")).rejects.toMatchObject({ code: "MLFLOW_NOT_FOUND", message: expect.stringContaining("artifact path 'a/nope' was not found in run 'r1'") });
  });

  it("downloads proxied artifacts through mlflow-artifacts and other stores through /get-artifact", async () => {
    const { fetch, seen } = fakeFetch({
      "/api/2.0/mlflow-artifacts/artifacts/1/r1/artifacts/dir/m%20x.json": () => bytes("{}"),
      "/get-artifact": () => bytes("{}"),
    });
    const client = fakeClient(fetch);
    await client.runArtifacts({ run_id: "r1", artifact_uri: "mlflow-artifacts://elsewhere:5000/1/r1/artifacts" }).open("dir/m x.json");
    await client.runArtifacts({ run_id: "r2", artifact_uri: "s3://bucket/1/r2/artifacts" }).open("dir/m.json");
    expect(seen.map((r) => r.path)).toEqual(["/api/2.0/mlflow-artifacts/artifacts/1/r1/artifacts/dir/m%20x.json", "/get-artifact"]);
    expect(Object.fromEntries(seen[1]!.query)).toEqual({ run_id: "r2", path: "dir/m.json" });
  });

  it("lists and downloads MLflow 3 logged-model files through their own routes (the file route is ajax-api only)", async () => {
    const { fetch, seen } = fakeFetch({
      "/api/2.0/mlflow/logged-models/m-1/artifacts/directories": () => json({ files: [{ path: "MLmodel", is_dir: false, file_size: 10 }] }),
      "/ajax-api/2.0/mlflow/logged-models/m-1/artifacts/files": () => bytes("flavors: {}"),
    });
    const source = fakeClient(fetch).loggedModelArtifacts("m-1");
    expect(await walkFiles(source)).toEqual([{ path: "MLmodel", is_dir: false, file_size: 10 }]);
    await source.open("MLmodel");
    expect(seen[1]!.query.get("artifact_file_path")).toBe("MLmodel");
  });

  it("lists the artifact proxy by base names and makes the paths relative to the listed root", async () => {
    const { fetch, seen } = fakeFetch({
      "/api/2.0/mlflow-artifacts/artifacts": (req) =>
        json({ files: req.query.get("path") === "1/r1/artifacts/model" ? [{ path: "w.safetensors", is_dir: false, file_size: 4 }] : [{ path: "model", is_dir: true }] }),
    });
    const files = await walkFiles(fakeClient(fetch).proxiedArtifacts(""), "1/r1/artifacts");
    expect(files).toEqual([{ path: "1/r1/artifacts/model/w.safetensors", is_dir: false, file_size: 4 }]);
    expect(seen.map((r) => r.query.get("path"))).toEqual(["1/r1/artifacts", "1/r1/artifacts/model"]);
  });

  it("parses mlflow-artifacts roots, ignoring any host in them", () => {
    expect(proxiedRoot("mlflow-artifacts:/1/abc/artifacts")).toBe("1/abc/artifacts");
    expect(proxiedRoot("mlflow-artifacts://other-host:5000/1/abc/artifacts/")).toBe("1/abc/artifacts");
    expect(proxiedRoot("mlflow-artifacts:/")).toBe("");
    expect(proxiedRoot("s3://bucket/x")).toBeNull();
    expect(proxiedRoot("/mnt/mlruns/1/abc/artifacts")).toBeNull();
  });
});
