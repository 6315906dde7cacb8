import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, type RunningService, startService } from "../../support/http-service.js";
import { installedMlflowReleases, type MlflowServer, runMlflowScript, sharedMlflowServer } from "../../support/mlflow-server.js";
import { realSweep } from "../../support/real-sweeps.js";

/** MLflow 3: the sweeps were logged to a 3.x tracking server. */
const releases = installedMlflowReleases().filter((r) => r.version.startsWith("3."));
if (releases.length === 0) console.warn("MLflow real-sweep compare tests skipped: run scripts/setup-mlflow.sh (npm test does)");

describe.skipIf(releases.length === 0).each(releases)("real sweeps logged to MLflow $version and compared from there", (release) => {
  let mlflow: MlflowServer;
  let svc: RunningService;
  let torchIds: Record<string, string>;

  beforeAll(async () => {
    mlflow = await sharedMlflowServer(release);
    for (const name of ["xgboost-depth", "torch-lr"] as const) {
      const file = join(mlflow.dir, `${name}.json`);
      writeFileSync(file, JSON.stringify(realSweep(name)));
      const ids = (await runMlflowScript(mlflow, "log_sweep.py", [file, name])) as Record<string, string>;
      if (name === "torch-lr") torchIds = ids;
    }
    svc = await startService({ SERVICE_MLFLOW_TRACKING_URI: mlflow.url });
  }, 400_000);

  afterAll(async () => {
    await svc?.close();
  });

  it("names XGBoost's bit-identical seeds and takes the noise from the curves", async () => {
    const res = await postJson(`${svc.url}/v1/compare`, { runs: [{ mlflow: { experiment: "xgboost-depth" } }] });
    expect(res.status).toBe(200);
    expect(res.json.runs).toHaveLength(12);
    expect(res.json.noise).toMatchObject({ source: "curves", deterministicConfigs: 4 });
    expect(res.json.noise.sigma).toBeGreaterThan(1e-5);
    expect(res.json.findings.map((f: { id: string }) => f.id)).toContain("experiment.deterministic_seeds");
  }, 200_000);

  it("flags the slow torch branch against the baseline by Welch, whatever the noisy branch does", async () => {
    const res = await postJson(`${svc.url}/v1/compare`, { runs: [{ mlflow: { experiment: "torch-lr" } }], baseline: torchIds["lr0.02-s1"] });
    expect(res.status).toBe(200);
    const byRuns = (lr: string) => res.json.baseline_comparison.candidates.find((c: { params: Record<string, string> }) => c.params.lr === lr);
    expect(byRuns("0.002").regression).toBe(true);
    expect(byRuns("0.14").regression).toBe(false);
  }, 200_000);
});
