import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RunFollower } from "../../client/watch/follow-run.js";
import { parseTrainingArtifact } from "../../nodes/training/parse/index.js";

/** `watch` on JSON lines and printed logs written a piece at a time, from files the real libraries wrote. */

const T = "test/fixtures/real/textlogs";
let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "ml-diagnose-watch-text-"));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

/** Writes `text` into `path` in `parts` pieces cut mid-line, polling after each; returns the artifacts seen. */
async function follow(dir: string, path: string, text: string, parts: number): Promise<Array<Record<string, unknown> | null>> {
  const follower = new RunFollower(dir);
  const seen: Array<Record<string, unknown> | null> = [];
  await writeFile(path, "");
  const size = Math.ceil(text.length / parts);
  for (let i = 0; i < text.length; i += size) {
    await appendFile(path, text.slice(i, i + size));
    await follower.poll();
    seen.push(follower.artifact(true));
  }
  return seen;
}

describe("RunFollower on text logs", () => {
  it("follows a growing JSON-lines log, a half-written last line waiting for its end", async () => {
    const dir = await mkdtemp(join(tmp, "jsonl-"));
    const text = await readFile(`${T}/jsonl/diverges.log.jsonl`, "utf8");
    const seen = await follow(dir, join(dir, "log.jsonl"), text, 5);
    const rows = seen.map((a) => (a ? parseTrainingArtifact(a).series.get("val/loss")?.values.length ?? 0 : 0));
    expect(rows.at(-1)).toBe(text.trim().split("\n").length);
    for (let i = 1; i < rows.length; i++) expect(rows[i]).toBeGreaterThanOrEqual(rows[i - 1]!);
    expect(seen.at(-1)).toMatchObject({ metrics: { format: "jsonl" }, metadata: { status: "running" } });
  });

  it("follows a printed Keras log as logs whose series grow epoch by epoch", async () => {
    const dir = await mkdtemp(join(tmp, "log-"));
    const text = await readFile(`${T}/logs/keras-fit-verbose2.log`, "utf8");
    const seen = await follow(dir, join(dir, "train.log"), text, 6);
    const epochs = seen.map((a) => (a ? parseTrainingArtifact(a).series.get("val/loss")?.values.length ?? 0 : 0));
    expect(epochs.at(-1)).toBe(60);
    expect(epochs[1]).toBeLessThan(60);
    expect(Array.isArray(seen.at(-1)!.logs)).toBe(true);
    expect(seen.at(-1)!.metrics).toBeUndefined();
  });
});
