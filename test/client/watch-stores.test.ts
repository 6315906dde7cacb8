import { appendFile, cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RunFollower } from "../../client/watch/follow-run.js";
import { unpackStore, wandbRunDirs } from "../support/store-fixtures.js";

let tmp: string;
const mlflow = unpackStore("mlflow-sqlite");
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "watch-stores-"));
});
afterAll(async () => {
  mlflow.cleanup();
  await rm(tmp, { recursive: true, force: true });
});

describe("watch on run stores (client/watch/store-followers.ts)", () => {
  it("follows a growing W&B log as wandb writes it, records cut mid-way waiting for their rest, until its exit record", async () => {
    const source = wandbRunDirs().healthy;
    const name = (await readdir(source)).find((f) => f.endsWith(".wandb"))!;
    const bytes = await readFile(join(source, name));
    const dir = join(tmp, "wandb", "offline-run-20261206_000000-abc");
    await cp(join(source, "files"), join(dir, "files"), { recursive: true });
    const follower = new RunFollower(tmp);
    let rows = 0;
    let ended = false;
    // Odd-sized chunks, as flushes of a live run land: most cut a record, some a block.
    for (let at = 0; at < bytes.length; at += 9973) {
      await appendFile(join(dir, name), bytes.subarray(at, Math.min(bytes.length, at + 9973)));
      const poll = await follower.poll();
      rows += poll.added;
      if (at + 9973 < bytes.length) expect(poll.ended).toBe(false);
      ended = poll.ended;
    }
    expect(follower.label).toMatch(/^W&B run wandb\/offline-run-/);
    expect(rows).toBe(300);
    expect(ended).toBe(true);
    const artifact = follower.artifact(false)!;
    const csv = artifact.metrics as { format: string; content: string };
    expect(csv.format).toBe("csv");
    expect(csv.content.trimEnd().split("\n")).toHaveLength(301);
    expect(artifact.params).toMatchObject({ lr: 0.001, num_classes: 10 });
  });

  it("follows the newest run of an MLflow SQLite store (the one still training), not read again while its files are unchanged", async () => {
    const follower = new RunFollower(mlflow.dir);
    const first = await follower.poll();
    expect(follower.label).toMatch(/^MLflow SQLite store mlflow\.db/);
    expect(first).toEqual({ added: 1, ended: false });
    expect(await follower.poll()).toEqual({ added: 0, ended: false });
    expect(follower.artifact(true)).toMatchObject({ metrics: [{ key: "train_loss", value: 0.5, step: 0 }], metadata: { status: "running" } });
  });
});
