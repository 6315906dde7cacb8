import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scanWandbLog, WandbRunBuilder, readWandbRun } from "../../client/detect/wandb-run.js";
import { BLOCK, isWandbLog, LevelDbLogReader } from "../../nodes/training/parse/leveldb-log.js";
import { decodeWandbRecord, numericJson } from "../../nodes/training/parse/wandb-records.js";
import { parseTrainingArtifact } from "../../nodes/training/parse/index.js";
import { wandbRunDirs } from "../support/store-fixtures.js";

/** W&B transaction logs written by the real wandb 0.31 in offline mode (scripts/fixtures/real/run_stores.py). */
const runs = wandbRunDirs();
const logOf = (dir: string) => join(dir, readdirSync(dir).find((f) => f.endsWith(".wandb"))!);

async function built(dir: string): Promise<WandbRunBuilder> {
  const b = new WandbRunBuilder();
  await scanWandbLog(logOf(dir), (r) => b.add(r));
  return b;
}

function records(bytes: Uint8Array, chunk: number): { records: string[]; unfinished: boolean } {
  const reader = new LevelDbLogReader();
  const out: string[] = [];
  for (let i = 0; i < bytes.length; i += chunk) for (const r of reader.feed(bytes.subarray(i, i + chunk))) out.push(Buffer.from(r).toString("hex"));
  return { records: out, unfinished: reader.unfinished };
}

describe("W&B transaction log (LevelDB framing)", () => {
  const bytes = readFileSync(logOf(runs.healthy));

  it("is told by its header, not its name", () => {
    expect(isWandbLog(bytes)).toBe(true);
    expect(isWandbLog(Buffer.from("SQLite format 3\0"))).toBe(false);
  });

  it("spans several 32 KiB blocks, with records split across them", () => {
    expect(bytes.length).toBeGreaterThan(3 * BLOCK);
  });

  it("yields the same records whatever the chunk size the bytes arrive in", () => {
    const whole = records(bytes, bytes.length);
    expect(whole.records.length).toBeGreaterThan(600);
    expect(whole.unfinished).toBe(false);
    for (const chunk of [1, 7, 4093, BLOCK + 3]) expect(records(bytes, chunk).records).toEqual(whole.records);
  });

  it("keeps what it holds between chunks when the caller reuses its read buffer (as a file read loop does)", () => {
    const whole = records(bytes, bytes.length).records;
    const reader = new LevelDbLogReader();
    const reused = Buffer.alloc(4093);
    const out: string[] = [];
    for (let i = 0; i < bytes.length; i += reused.length) {
      const n = bytes.copy(reused, 0, i, Math.min(bytes.length, i + reused.length));
      for (const r of reader.feed(reused.subarray(0, n))) out.push(Buffer.from(r).toString("hex"));
    }
    expect(out).toEqual(whole);
  });

  it("keeps a record cut off at the end for later (a run still writing)", () => {
    const whole = records(bytes, bytes.length).records;
    const cut = records(bytes.subarray(0, 2 * BLOCK + 100), 1 << 20);
    expect(cut.unfinished).toBe(true);
    expect(cut.records).toEqual(whole.slice(0, cut.records.length));
  });

  it("refuses a corrupted record with its offset", () => {
    const bad = Buffer.from(bytes);
    // Byte 20 is inside the first record's data (file header 7 bytes, record header 7).
    bad[20] = bad[20]! ^ 0xff;
    expect(() => records(bad, bad.length)).toThrow(/record at byte 7: checksum mismatch/);
  });

  it("refuses a file that is not a W&B log", () => {
    expect(() => new LevelDbLogReader().feed(Buffer.from("epoch,loss\n1,0.5\n"))).toThrow(/not a W&B transaction log/);
  });
});

describe("W&B records", () => {
  it("reads every history row with its step, timestamp and numeric values", async () => {
    const b = await built(runs.healthy);
    expect(b.history.rows).toBe(300);
    const keys = new Set(b.history.longRows().map((m) => m.key));
    // Strings and booleans are not metrics; a nested dict's number is, under its dotted key.
    expect([...keys].sort()).toEqual(["epoch", "flags.lr_scale", "train/loss", "val/acc", "val/loss"]);
    const train = b.history.longRows().filter((m) => m.key === "train/loss");
    expect(train.map((m) => m.step).slice(0, 3)).toEqual([0, 10, 20]);
    expect(train[0]!.timestamp).toBeGreaterThan(1.7e12);
    // Validation every 5th row: the other rows have no val/loss at all.
    expect(b.history.longRows().filter((m) => m.key === "val/loss").map((m) => m.step).slice(0, 2)).toEqual([40, 90]);
  });

  it("keeps NaN and ±Infinity as logged", async () => {
    const b = await built(runs.diverged);
    const train = b.history.longRows().filter((m) => m.key === "train/loss").map((m) => m.value);
    expect(train.slice(0, 30).every(Number.isFinite)).toBe(true);
    expect(train.some(Number.isNaN)).toBe(true);
    expect(train).toContain(Number.POSITIVE_INFINITY);
    expect(b.history.longRows().filter((m) => m.key === "val/loss").map((m) => m.value)).toContain(Number.NEGATIVE_INFINITY);
  });

  it("reads the typed values of x_history_value_encoding='json,typed' as the JSON ones", async () => {
    const b = await built(runs.typed);
    expect(b.history.rows).toBe(40);
    expect(b.history.longRows().filter((m) => m.key === "train/loss").every((m) => Number.isFinite(m.value))).toBe(true);
    expect(b.history.longRows().filter((m) => m.key === "epoch").map((m) => m.value).slice(-1)).toEqual([3]);
  });

  it("takes the config from the run record, the summary from the summary records, and the exit code", async () => {
    const b = await built(runs.overfit);
    expect(b.params).toEqual({ lr: 0.001, batch_size: 32, optimizer: { name: "adam", betas: [0.9, 0.999] }, num_classes: 10 });
    expect(b.summary.best_val_loss).toBeTypeOf("number");
    expect(b.name).toBe("overfit");
    expect(b.project).toBe("stores-fixture");
    expect(b.exitCode).toBe(0);
  });

  it("accounts for every file of the run folder", async () => {
    const dir = runs.healthy;
    const files = ["files/requirements.txt", "logs/debug.log", "logs/debug-internal.log"].map((r) => ({ path: join(dir, r), relative: r, size: 1 }));
    const log = { path: logOf(dir), relative: logOf(dir).slice(dir.length + 1), size: 1 };
    const run = await readWandbRun(log, [log, ...files]);
    expect(run.used.map((u) => u.file)).toEqual([log]);
    expect(run.skipped.map((s) => s.file.relative).sort()).toEqual(files.map((f) => f.relative).sort());
  });

  it("is sent as CSV text the service reads into the same series as the points, absent keys absent, NaN and ±Infinity kept", async () => {
    const b = await built(runs.diverged);
    const csv = b.history.csv()!;
    expect(csv.content.split("\n")[0]!.split(",").sort()).toEqual(["epoch", "flags.lr_scale", "step", "train/loss", "val/acc", "val/loss"]);
    const run = parseTrainingArtifact({ metrics: csv });
    const byKey = new Map<string, number[]>();
    for (const p of b.history.longRows()) byKey.set(p.key, [...(byKey.get(p.key) ?? []), p.value]);
    for (const key of ["train/loss", "val/loss", "val/acc"]) {
      const series = [...run.series.values()].find((s) => s.sources.includes(key));
      expect(series, key).toBeDefined();
      expect(Array.from(series!.values)).toEqual(byKey.get(key));
    }
  });

  it("reads a history value_json as a number only when it is one", () => {
    expect(numericJson("0.25")).toBe(0.25);
    expect(numericJson("-3e-2")).toBe(-0.03);
    expect(numericJson("NaN")).toBeNaN();
    expect(numericJson("-Infinity")).toBe(Number.NEGATIVE_INFINITY);
    for (const text of ['"warm-up"', "true", "null", '{"a":1}', "[1,2]", ""]) expect(numericJson(text)).toBeNull();
    expect(decodeWandbRecord(new Uint8Array([0x08, 0x01]))).toBeNull();
  });
});
