import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { chooseRun, readMlflowSqlite, type SqliteRunInfo } from "../../client/detect/mlflow-sqlite.js";
import { applyWal } from "../../client/detect/sqlite-wal.js";
import { unpackStore } from "../support/store-fixtures.js";

/** MLflow 3.17's SQLite store as `mlflow.set_tracking_uri("sqlite:///…")` wrote it (scripts/fixtures/real/run_stores.py). */
const plain = unpackStore("mlflow-sqlite");
const wal = unpackStore("mlflow-sqlite-wal");
afterAll(() => {
  plain.cleanup();
  wal.cleanup();
});
const sha = (p: string) => createHash("sha256").update(readFileSync(p)).digest("hex");

describe("MLflow SQLite store", () => {
  it("sends the newest ended run with its metric history, params and tags", async () => {
    const read = (await readMlflowSqlite(join(plain.dir, "mlflow.db")))!;
    expect(read.run).toMatchObject({ name: "diverged-mlp", status: "FINISHED", experimentName: "stores-fixture", deleted: false });
    expect(new Set(read.metrics.map((m) => m.key))).toEqual(new Set(["train_loss", "val_loss", "val_accuracy"]));
    expect(read.metrics).toHaveLength(90);
    expect(read.params).toEqual({ lr: "3.0", epochs: "30", optimizer: "sgd" });
    expect(read.tags).toMatchObject({ fault: "diverged", "mlflow.runName": "diverged-mlp" });
  });

  it("gives back NaN (is_nan rows) and +Infinity (stored as DBL_MAX) as logged", async () => {
    const read = (await readMlflowSqlite(join(plain.dir, "mlflow.db")))!;
    const train = read.metrics.filter((m) => m.key === "train_loss");
    expect(train.map((m) => m.step)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(train[12]!.value).toBeNaN();
    expect(train[13]!.value).toBe(Number.POSITIVE_INFINITY);
    expect(train.slice(0, 12).every((m) => Number.isFinite(m.value) && m.value > 0)).toBe(true);
  });

  it("lists the other live runs and counts the deleted one, never choosing it or the run still going", async () => {
    const read = (await readMlflowSqlite(join(plain.dir, "mlflow.db")))!;
    expect(read.others.map((r) => r.name).sort()).toEqual(["healthy-mlp", "overfit-mlp", "still-running"]);
    expect(read.deleted).toBe(1);
  });

  it("chooses a run by id or name when asked, the newest live run when none ended", () => {
    const run = (name: string, status: string, deleted = false): SqliteRunInfo => ({ runId: `id-${name}`, name, status, startTime: 0, experimentId: "1", experimentName: "e", deleted });
    const runs = [run("gone", "FINISHED", true), run("live", "RUNNING"), run("done", "FAILED"), run("old", "FINISHED")];
    expect(chooseRun(runs, null)?.name).toBe("done");
    expect(chooseRun(runs.slice(0, 2), null)?.name).toBe("live");
    expect(chooseRun(runs, "id-old")?.name).toBe("old");
    expect(chooseRun(runs, "gone")?.name).toBe("gone");
    expect(chooseRun(runs, "nothing")).toBeNull();
  });

  it("reads a WAL-mode store's committed transactions from its -wal file, without touching either file", async () => {
    const db = join(wal.dir, "mlflow.db");
    const before = [sha(db), sha(`${db}-wal`)];
    const read = (await readMlflowSqlite(db))!;
    expect(read.run?.name).toBe("healthy-mlp");
    expect(read.metrics).toHaveLength(90);
    expect(read.wal?.frames).toBeGreaterThan(0);
    expect([sha(db), sha(`${db}-wal`)]).toEqual(before);
    expect(existsSync(`${db}-shm`)).toBe(false);
  });

  it("does not see the run in the db file alone: it lives in the WAL", async () => {
    const only = unpackStore("mlflow-sqlite-wal");
    try {
      rmSync(join(only.dir, "mlflow.db-wal"));
      const read = await readMlflowSqlite(join(only.dir, "mlflow.db"));
      expect(read?.run ?? null).toBeNull();
    } finally {
      only.cleanup();
    }
  });

  it("leaves out WAL frames past the last commit and a WAL whose header checksum is wrong", () => {
    const db = readFileSync(join(wal.dir, "mlflow.db"));
    const walBytes = readFileSync(join(wal.dir, "mlflow.db-wal"));
    const full = applyWal(db, walBytes);
    expect(full.ignored).toBe(0);
    // Cut inside the last frame: that transaction's frames are not applied.
    const cut = applyWal(db, walBytes.subarray(0, walBytes.length - 100));
    expect(cut.frames).toBeLessThan(full.frames);
    const broken = Buffer.from(walBytes);
    broken[25] = broken[25]! ^ 0xff;
    expect(applyWal(db, broken).frames).toBe(0);
  });

  it("chooses no run when the run asked for is not in the store", async () => {
    const read = await readMlflowSqlite(join(plain.dir, "mlflow.db"), "no-such-run");
    expect(read?.run).toBeNull();
  });
});
