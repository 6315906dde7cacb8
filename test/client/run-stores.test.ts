import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/client-process.js";
import { expectFinding, expectNothingAbove, listing } from "../support/diagnosis.js";
import { type RunningService, startService } from "../support/http-service.js";
import { STORES_DIR, unpackStore, wandbRunDirs } from "../support/store-fixtures.js";

/**
 * `ml-diagnose analyse <folder>` on the binary run stores the real libraries wrote (test/fixtures/real/stores/):
 * MLflow 3's SQLite store and W&B offline run folders are read, one run sent, every other file accounted for, and
 * the service reports what the generator planted.
 */
let svc: RunningService;
const mlflow = unpackStore("mlflow-sqlite");
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => {
  svc?.close();
  mlflow.cleanup();
});
const analyse = (path: string) => runCli(["analyse", path, "--format", "json"], { ML_DIAGNOSE_SERVER: svc.url });

describe("analyse on run stores", { timeout: 120_000 }, () => {
  it("serves a folder holding mlflow.db: the newest ended run (diverged) is sent and its non-finite loss found", async () => {
    const { code, stdout, stderr } = await analyse(mlflow.dir);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/mlflow\.db → training_artifacts\.metrics \(MLflow SQLite store, run diverged-mlp/);
    expect(stderr).toMatch(/3 other runs in the store not sent/);
    const body = JSON.parse(stdout);
    expect(body.error_messages, listing(body)).toEqual({});
    expectFinding(body, "training.nonfinite_loss", "high");
  });

  it("sends the store's run --run names, and stops under --strict when the store has no such run", async () => {
    const named = await runCli(["analyse", mlflow.dir, "--run", "overfit-mlp", "--dry-run"], { ML_DIAGNOSE_SERVER: svc.url });
    expect(named.code, named.stderr).toBe(0);
    expect(named.stderr).toMatch(/MLflow SQLite store, run overfit-mlp \(finished/);
    expect(JSON.parse(named.stdout).training_artifacts.params).toEqual({ lr: "0.001", epochs: "30", optimizer: "adam", dropout: "0.0" });
    const missing = await runCli(["analyse", mlflow.dir, "--run", "no-such-run", "--strict", "--dry-run"], { ML_DIAGNOSE_SERVER: svc.url });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no run no-such-run in the store/);
  });

  it("serves a wandb/ folder: the newest run folder is sent, the others listed as not sent", async () => {
    const { code, stderr } = await analyse(`${STORES_DIR}wandb-runs`);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/run-[a-z0-9]+\.wandb → training_artifacts\.metrics \(W&B history \(40 rows/);
    expect(stderr.match(/another W&B run/g)).toHaveLength(3);
    expect(stderr).toMatch(/debug-internal\.log.*W&B's own bookkeeping/);
  });

  it("sends the W&B run --run names by its id", async () => {
    const folder = wandbRunDirs().overfit;
    const id = folder.split("-").pop()!;
    const { code, stderr } = await runCli(["analyse", `${STORES_DIR}wandb-runs`, "--run", id, "--dry-run"], { ML_DIAGNOSE_SERVER: svc.url });
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(new RegExp(`run-${id}\\.wandb → training_artifacts\\.metrics \\(W&B history \\(60 rows`));
    expect(stderr.match(/another W&B run/g)).toHaveLength(3);
  });

  it("finds the non-finite loss of a W&B run whose loss turned NaN and infinite", async () => {
    const { code, stdout, stderr } = await analyse(wandbRunDirs().diverged);
    expect(code, stderr).toBe(0);
    const body = JSON.parse(stdout);
    expectFinding(body, "training.nonfinite_loss", "high");
  });

  it("finds the overfitting of the W&B run whose validation loss climbs", async () => {
    const { code, stdout, stderr } = await analyse(wandbRunDirs().overfit);
    expect(code, stderr).toBe(0);
    const body = JSON.parse(stdout);
    expect(listing(body)).toMatch(/training\.(overfitting|generalization_gap)/);
  });

  it("reports nothing above medium on the healthy W&B run", async () => {
    const { code, stdout, stderr } = await analyse(wandbRunDirs().healthy);
    expect(code, stderr).toBe(0);
    expectNothingAbove(JSON.parse(stdout), "medium");
  });
});
