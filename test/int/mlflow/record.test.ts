import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../client/main.js";
import { EXIT } from "../../../client/exit-codes.js";
import { severityRank } from "../../../domain/result.js";
import { type RunningService, startService } from "../../support/http-service.js";
import { installedMlflowReleases, type MlflowServer, runMlflowScript, sharedMlflowServer } from "../../support/mlflow-server.js";

const DATA = fileURLToPath(new URL("../../fixtures/client-dataset/", import.meta.url));
const releases = installedMlflowReleases();

interface ReadBack {
  artifacts: string[];
  tags: Record<string, string>;
  diagnosis: { agent_results: Record<string, { findings: Array<{ id: string; severity: "critical" | "high" | "medium" | "low" | "info" }> }> };
  dataset: { statistics: { splits: unknown; train_test_overlap: unknown } } | null;
  report_head: string;
}

describe.skipIf(releases.length === 0).each(releases)("ml-diagnose --record-to-mlflow against MLflow $version", (release) => {
  let mlflow: MlflowServer;
  let svc: RunningService;

  beforeAll(async () => {
    mlflow = await sharedMlflowServer(release);
    svc = await startService();
  }, 400_000);

  afterAll(async () => {
    await svc?.close();
  });

  it("logs request, dataset statistics, diagnosis and report under diagnosis/ and tags the run, as MLflow's client reads back", async () => {
    const { run_id: runId } = (await runMlflowScript(mlflow, "record_check.py", ["create"])) as { run_id: string };
    let stdout = "";
    let stderr = "";
    const io = { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, env: { MLFLOW_TRACKING_URI: mlflow.url } };
    const args = ["analyse", "--data", `${DATA}train.parquet`, "--test", `${DATA}test.csv.gz`, "--target", "label", "--server", svc.url, "--format", "json", "--record-to-mlflow", runId];
    expect(await main(args, io), stderr).toBe(EXIT.ok);
    expect(stderr).toContain(`in MLflow run ${runId}`);

    const back = (await runMlflowScript(mlflow, "record_check.py", ["read", runId])) as ReadBack;
    expect(back.artifacts).toEqual(["diagnosis/dataset_statistics.json", "diagnosis/diagnosis.json", "diagnosis/report.html", "diagnosis/request.json"]);
    // What was recorded is what the command printed: the same diagnosis, and tags computed from it.
    const printed = JSON.parse(stdout) as ReadBack["diagnosis"];
    expect(back.diagnosis).toEqual(printed);
    const findings = Object.values(printed.agent_results).flatMap((r) => r.findings);
    const worst = [...findings].sort((a, b) => severityRank(a.severity) - severityRank(b.severity))[0]!;
    expect(back.tags).toEqual({ "diagnosis.max_severity": worst.severity, "diagnosis.findings": String(findings.length) });
    expect(findings.map((f) => f.id)).toEqual(expect.arrayContaining(["dataset.train_test_overlap", "dataset.feature_drift"]));
    expect(back.dataset?.statistics).toMatchObject({ splits: { train: { num_rows: 3030 }, test: { num_rows: 825 } }, train_test_overlap: { count: 25 } });
    expect(back.report_head).toMatch(/^<!doctype html>/i);
  }, 120_000);

  it("refuses an unknown run with MLflow's message and exit 4, after printing the diagnosis", async () => {
    let stderr = "";
    const io = { stdout: { write: () => true }, stderr: { write: (s: string) => (stderr += s) }, env: { MLFLOW_TRACKING_URI: mlflow.url } };
    const code = await main(["analyse", "--data", `${DATA}train.csv`, "--server", svc.url, "--format", "json", "--record-to-mlflow", "0123456789abcdef0123456789abcdef"], io);
    expect(code).toBe(EXIT.serviceError);
    expect(stderr).toMatch(/MLflow at http:\/\/127\.0\.0\.1:\d+ refused GET \/api\/2\.0\/mlflow\/runs\/get \(404\)/);
  }, 120_000);
});
