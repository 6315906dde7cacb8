import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LineFollower } from "../../client/watch/append-reader.js";
import { TfRecordFollower } from "../../client/watch/tfrecord-follower.js";
import { parseTrainingArtifact } from "../../nodes/training/parse/index.js";
import { RUNS_DIR } from "../support/run-folders.js";

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "watch-readers-"));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe("readers of growing files (client/watch)", () => {
  it("gives complete lines only, and reads a CSV again when its header is rewritten wider (Lightning's CSVLogger)", async () => {
    const path = join(tmp, "metrics.csv");
    const follower = new LineFollower(path);
    expect(await follower.poll()).toEqual({ added: 0, rewritten: false });
    await writeFile(path, "epoch,step,train_loss\n0,1,2.3\n0,2,2.");
    expect(await follower.poll()).toEqual({ added: 2, rewritten: false });
    await appendFile(path, "1\n0,3,2.0\n");
    expect(await follower.poll()).toEqual({ added: 2, rewritten: false });
    expect(follower.lines).toEqual(["epoch,step,train_loss", "0,1,2.3", "0,2,2.1", "0,3,2.0"]);
    // A new metric appears: the logger writes the whole file again with the wider header.
    await writeFile(path, "epoch,step,train_loss,val_loss\n0,1,2.3,\n0,2,2.1,\n0,3,2.0,\n0,3,,2.2\n");
    expect(await follower.poll()).toEqual({ added: 5, rewritten: true });
    expect(follower.lines[0]).toBe("epoch,step,train_loss,val_loss");
    expect(follower.lines).toHaveLength(5);
    // A file replaced by a shorter one (a new run in the same place) restarts too.
    await writeFile(path, "epoch,step,train_loss\n");
    expect(await follower.poll()).toEqual({ added: 1, rewritten: true });
    expect(follower.lines).toEqual(["epoch,step,train_loss"]);
  });

  it("splits an event file into whole TFRecords, waiting for a record's missing bytes, and the records parse as the original", async () => {
    const source = join(RUNS_DIR, "tensorboard-healthy/runs/exp1/events.out.tfevents.1795593186.vm.28385.2");
    const bytes = await readFile(source);
    const path = join(tmp, "events.out.tfevents.1");
    const follower = new TfRecordFollower(path);
    let records = 0;
    // Odd-sized chunks: most cut a record (or its length prefix) in two.
    for (let at = 0; at < bytes.length; at += 997) {
      await appendFile(path, bytes.subarray(at, Math.min(bytes.length, at + 997)));
      records += await follower.poll();
      expect(bytes.subarray(0, follower.content().length).equals(follower.content())).toBe(true);
    }
    expect(follower.content().equals(bytes)).toBe(true);
    expect(follower.count).toBe(records);
    const whole = parseTrainingArtifact({ metrics: { format: "tfevents", content_base64: bytes.toString("base64") } });
    const followed = parseTrainingArtifact({ metrics: { format: "tfevents", content_base64: follower.content().toString("base64") } });
    expect([...followed.series.keys()]).toEqual([...whole.series.keys()]);
    expect(followed.meta.records).toBe(whole.meta.records);
  });
});
