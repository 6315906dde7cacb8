import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { main } from "../../../client/main.js";
import { EXIT } from "../../../client/exit-codes.js";

const fixtures = fileURLToPath(new URL("../../fixtures/client-dataset/", import.meta.url));

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io = { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, env: {} };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

describe("ml-diagnose analyse --data", () => {
  it("puts the statistics computed from the files into the request's dataset_artifacts", async () => {
    const r = await run(["analyse", "--data", `${fixtures}train.csv.gz`, "--test", `${fixtures}test.parquet`, "--target", "label", "--dry-run"]);
    expect(r.code).toBe(EXIT.ok);
    const request = JSON.parse(r.stdout) as { dataset_artifacts: { metadata: Record<string, unknown>; statistics: Record<string, unknown> } };
    expect(request.dataset_artifacts.metadata).toMatchObject({ target: "label", modality: "tabular" });
    expect(request.dataset_artifacts.statistics).toMatchObject({ splits: { train: { num_rows: 3030 }, test: { num_rows: 825 } }, duplicates: { count: 30 }, train_test_overlap: { count: 25 } });
    expect(r.stderr).toContain("3,855 rows, 8 columns");
  });

  it("exits 2 with the file and line of a malformed file, sending nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cli-dataset-"));
    const bad = join(dir, "bad.csv");
    writeFileSync(bad, "a,b\n1,2\n3,4,5\n");
    const r = await run(["analyse", "--data", bad, "--server", "http://127.0.0.1:9"]);
    rmSync(dir, { recursive: true, force: true });
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain(`${bad}, line 3`);
    expect(r.stdout).toBe("");
  });

  it("refuses --test or --target without --data", async () => {
    const r = await run(["analyse", "run/", "--target", "label"]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain("--target goes with --data");
  });

  it("sends the time split on --time-column, and refuses it without --test or when a file lacks the column", async () => {
    const pair = fileURLToPath(new URL("../../fixtures/client-dataset/leakage/time_leak/", import.meta.url));
    const args = ["analyse", "--data", `${pair}train.csv`, "--test", `${pair}test.csv`, "--target", "label", "--dry-run"];
    const r = await run([...args, "--time-column", "event_time"]);
    expect(r.code).toBe(EXIT.ok);
    const request = JSON.parse(r.stdout) as { dataset_artifacts: { metadata: Record<string, unknown>; statistics: Record<string, unknown> } };
    expect(request.dataset_artifacts.metadata).toMatchObject({ time_column: "event_time" });
    expect(request.dataset_artifacts.statistics.time_split).toMatchObject({ column: "event_time", stated: true });
    const noTest = await run(["analyse", "--data", `${pair}train.csv`, "--time-column", "event_time", "--dry-run"]);
    expect(noTest.code).toBe(EXIT.usage);
    expect(noTest.stderr).toContain("--time-column compares train with test");
    const missing = await run([...args, "--time-column", "Event_Time"]);
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.stderr).toContain('no column "Event_Time" (--time-column); did you mean "event_time"?');
  });
});
