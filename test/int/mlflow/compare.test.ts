import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, type RunningService, startService } from "../../support/http-service.js";
import { installedMlflowReleases, type MlflowServer, runMlflowScript, sharedMlflowServer } from "../../support/mlflow-server.js";
import { lrGrid, syntheticRun } from "../../support/synthetic-sweep.js";

const releases = installedMlflowReleases();
if (releases.length === 0) console.warn("MLflow compare tests skipped: run scripts/setup-mlflow.sh (npm test does)");

/** 24 runs: four learning rates × six seeds, the true optimum beyond the largest rate tried. */
const SWEEP = lrGrid([1e-4, 3e-4, 1e-3, 3e-3], [1, 2, 3, 4, 5, 6], 3e-2).map((spec) => {
  const run = syntheticRun(spec);
  return { name: run.name, params: run.params, metrics: run.training_artifacts.metrics };
});

describe.skipIf(releases.length === 0).each(releases)("comparing an experiment pulled from MLflow $version", (release) => {
  let mlflow: MlflowServer;
  let svc: RunningService;
  let ids: Record<string, string>;

  beforeAll(async () => {
    mlflow = await sharedMlflowServer(release);
    const file = join(mlflow.dir, "sweep.json");
    writeFileSync(file, JSON.stringify(SWEEP));
    ids = (await runMlflowScript(mlflow, "log_sweep.py", [file, "lr-sweep"])) as Record<string, string>;
    svc = await startService({ SERVICE_MLFLOW_TRACKING_URI: mlflow.url, SERVICE_MAX_COMPARE_RUNS: "30" });
  }, 400_000);

  afterAll(async () => {
    await svc?.close();
  });

  it("pulls every run of the experiment (24) and finds the boundary optimum the sweep was built with", async () => {
    const res = await postJson(`${svc.url}/v1/compare`, { runs: [{ mlflow: { experiment: "lr-sweep" } }] });
    expect(res.status).toBe(200);
    expect(res.json.runs).toHaveLength(24);
    expect(new Set(res.json.runs.map((r: { name: string }) => r.name))).toEqual(new Set(Object.keys(ids)));
    const run = res.json.runs.find((r: { name: string }) => r.name === "lr0.001-s3");
    expect(run.params).toMatchObject({ lr: "0.001", seed: "3" });
    expect(run.status).toBe("ok");
    expect(run.objective.last_step).toBe(39);
    expect(res.json.objective).toEqual({ metric: "val/loss", direction: "minimize", inferred: true });
    expect(res.json.noise).toMatchObject({ source: "seeds", df: 20 });
    const edge = res.json.findings.find((f: { id: string }) => f.id === "experiment.boundary_optimum");
    expect(edge.evidence[0].observed).toBe(0.003);
  }, 200_000);

  it("narrows the experiment with MLflow filters and max_runs, and takes the baseline by run id", async () => {
    const latest = (lr: string) => ({ mlflow: { experiment: "lr-sweep", filter: `params.lr = '${lr}'`, max_runs: 4 } });
    const res = await postJson(`${svc.url}/v1/compare`, { runs: [latest("0.001"), latest("0.003")], baseline: ids["lr0.003-s6"] });
    expect(res.status).toBe(200);
    // The latest 4 of each rate's 6 runs: seeds 6 down to 3.
    expect(res.json.runs.map((r: { name: string }) => r.name)).toEqual(["lr0.001-s6", "lr0.001-s5", "lr0.001-s4", "lr0.001-s3", "lr0.003-s6", "lr0.003-s5", "lr0.003-s4", "lr0.003-s3"]);
    expect(res.json.baseline_comparison.baseline).toBe("lr0.003-s6");
    expect(res.json.baseline_comparison.candidates[0].runs).toEqual(["lr0.001-s6", "lr0.001-s5", "lr0.001-s4", "lr0.001-s3"]);
    expect(res.json.baseline_comparison.regression).toBe(true);

    const refused = await postJson(`${svc.url}/v1/compare`, { runs: [{ mlflow: { experiment: "lr-sweep", filter: "params.lr = '0.001' or params.lr = '0.003'" } }] });
    expect(refused.status).toBe(400);
    expect(refused.json.detail).toMatch(/^Error decoding request: runs\[0\]\.mlflow\.filter: the tracking server refused the filter/);
  }, 200_000);

  it("takes a list of run ids, and answers 413 naming the limit when the experiment has more runs than allowed", async () => {
    const listed = await postJson(`${svc.url}/v1/compare`, { runs: [{ mlflow: { run_ids: [ids["lr0.0001-s1"], ids["lr0.0003-s1"]] } }] });
    expect(listed.status).toBe(200);
    expect(listed.json.runs.map((r: { name: string }) => r.name)).toEqual([ids["lr0.0001-s1"], ids["lr0.0003-s1"]]);

    const small = await startService({ SERVICE_MLFLOW_TRACKING_URI: mlflow.url, SERVICE_MAX_COMPARE_RUNS: "20" });
    try {
      const res = await postJson(`${small.url}/v1/compare`, { runs: [{ mlflow: { experiment: "lr-sweep" } }] });
      expect(res.status).toBe(413);
      expect(res.json.detail).toMatch(/exceed the limit of 20 runs per comparison \(SERVICE_MAX_COMPARE_RUNS\)/);
      const missing = await postJson(`${small.url}/v1/compare`, { runs: [{ mlflow: { experiment: "no-such-experiment" } }] });
      expect(missing.status).toBe(404);
    } finally {
      await small.close();
    }
  }, 200_000);
});
