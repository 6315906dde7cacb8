import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTolerantJson } from "../../artifacts/tolerant-json.js";
import { AnalysisResponseSchema } from "../../domain/result.js";
import { type CliRun, runCli } from "../support/client-process.js";
import { ids } from "../support/diagnosis.js";
import { type RunningService, startService } from "../support/http-service.js";

/** The real `ml-diagnose` process against the real service over loopback HTTP, in deterministic mode. */

const NONFINITE = "test/fixtures/checkpoint/safetensors/fault-nonfinite.safetensors";
const BENIGN = "test/fixtures/checkpoint/safetensors/benign-mlp.safetensors";
const KERAS_CSV = "test/fixtures/training/keras-csvlogger.csv";

let svc: RunningService;
let tmp: string;
const cli = (args: string[], env: Record<string, string> = {}): Promise<CliRun> => runCli(args, { ML_DIAGNOSE_SERVER: svc.url, ...env });
/** A loopback address nothing listens on: a port bound and released (fetch refuses well-known ports like 9). */
let closedServer: string;

beforeAll(async () => {
  svc = await startService();
  tmp = await mkdtemp(join(tmpdir(), "ml-diagnose-"));
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  closedServer = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise((r) => probe.close(r));
});
afterAll(async () => {
  await svc?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe("ml-diagnose analyse", { timeout: 120_000 }, () => {
  it("text: the diagnosis on stdout, which file went where on stderr, exit 0 without --fail-on", async () => {
    const r = await cli(["analyse", NONFINITE, KERAS_CSV]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Diagnosis: \d+ findings: 1 critical/);
    expect(r.stdout).toMatch(/CRITICAL .*\[checkpoint\.nonfinite_weights\]/);
    expect(r.stdout).not.toContain("\u001b[");
    expect(r.stderr).toContain(`+ ${NONFINITE} → model_checkpoint_artifacts (checkpoint)`);
    expect(r.stderr).toContain(`+ ${KERAS_CSV} → training_artifacts.metrics (Keras CSVLogger log)`);
  });

  it("--fail-on: exit 1 when a finding reaches the severity, 0 when none does", async () => {
    const failed = await cli(["analyse", NONFINITE, "--fail-on", "critical", "-q"]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("gate failed: 1 finding at critical or above (--fail-on critical)");
    const clean = await cli(["analyse", BENIGN, "--fail-on", "critical", "-q"]);
    expect(clean.code, clean.stderr).toBe(0);
    const low = await cli(["analyse", BENIGN, "--fail-on", "low", "-q", "--format", "json"]);
    expect(low.code).toBe(1);
  });

  it("json: the service's response as it came (the same findings as a direct POST of the --dry-run body)", async () => {
    const r = await cli(["analyse", NONFINITE, "--format", "json", "-q"]);
    expect(r.code, r.stderr).toBe(0);
    const body = AnalysisResponseSchema.parse(JSON.parse(r.stdout));
    const dry = await cli(["analyse", NONFINITE, "--dry-run", "-q"]);
    const direct = await fetch(`${svc.url}/v1/analyse`, { method: "POST", headers: { "content-type": "application/json" }, body: dry.stdout });
    expect(ids(body)).toEqual(ids(await direct.json()));
  });

  it("markdown: a CI job summary with a row per finding", async () => {
    const r = await cli(["analyse", NONFINITE, "--format", "markdown", "-q"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^## ML diagnosis: \d+ findings/);
    expect(r.stdout).toMatch(/^\| 🟥 critical \| \*\*.+\*\* `checkpoint\.nonfinite_weights` \| .+ \|$/m);
  });

  it("html: the service's report page, written to --output", async () => {
    const out = join(tmp, "report.html");
    const r = await cli(["analyse", NONFINITE, "--format", "html", "--output", out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`wrote html to ${out}`);
    expect((await readFile(out, "utf8")).trimStart().toLowerCase()).toMatch(/^<!doctype html>/);
  });

  it("--dry-run: the request JSON on stdout, nothing sent (the server is unreachable)", async () => {
    const r = await cli(["analyse", NONFINITE, KERAS_CSV, "--dry-run", "--dataset-name", "blobs"], { ML_DIAGNOSE_SERVER: closedServer });
    expect(r.code, r.stderr).toBe(0);
    const request = parseTolerantJson(r.stdout) as any;
    expect(request.dataset_name).toBe("blobs");
    expect(request.training_artifacts.metrics.format).toBe("keras_csv");
    const stats = request.model_checkpoint_artifacts.metadata.tensor_stats;
    expect(stats.tensors_with_nonfinite).toBeGreaterThan(0);
    expect(stats.per_tensor.some((t: { nan_count: number }) => t.nan_count > 0)).toBe(true);
    expect(request.model_checkpoint_artifacts.checkpoint_path).toBeUndefined();
  });

  it("--server-paths sends the checkpoint's absolute path instead of its statistics", async () => {
    const r = await cli(["analyse", NONFINITE, "--dry-run", "--server-paths", "-q"]);
    const request = JSON.parse(r.stdout);
    expect(request.model_checkpoint_artifacts).toEqual({ checkpoint_path: join(process.cwd(), NONFINITE) });
  });

  it("--progress: one line per node from the service's event stream", async () => {
    const r = await cli(["analyse", NONFINITE, "--progress", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/✓ analyzeCheckpoint \d+ findings/);
    expect(AnalysisResponseSchema.safeParse(JSON.parse(r.stdout)).success).toBe(true);
  });
});

describe("bad input and exit codes", { timeout: 120_000 }, () => {
  it("an unknown flag is a usage error that suggests the right one (exit 2)", async () => {
    const r = await cli(["analyse", NONFINITE, "--fail-onn", "high"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("did you mean --fail-on?");
  });

  it("no path and no --mlflow-run is a usage error (exit 2)", async () => {
    const r = await cli(["analyse"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("give at least one run folder or file");
  });

  it("an unreadable file is named with the reason and skipped; --strict stops with exit 2 before sending", async () => {
    const broken = join(tmp, "report.json");
    await writeFile(broken, "{ not json");
    const skipped = await cli(["analyse", NONFINITE, broken, "-q"]);
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(skipped.stderr).toContain(`! ${broken}: skipped: not valid JSON`);
    const strict = await cli(["analyse", NONFINITE, broken, "--strict"], { ML_DIAGNOSE_SERVER: closedServer });
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain("--strict: 1 input file could not be used");
    expect(strict.stderr).not.toContain("retry");
  });

  it("a missing path is named; nothing left to send is exit 2", async () => {
    const r = await cli(["analyse", join(tmp, "nope")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("nope: skipped: no such file or folder");
    expect(r.stderr).toContain("nothing to analyse");
  });

  it("an unreachable service is exit 3 after the retries, each retry announced", async () => {
    const r = await cli(["analyse", BENIGN, "--retries", "2", "--max-wait", "5", "-q"], { ML_DIAGNOSE_SERVER: closedServer });
    expect(r.code).toBe(3);
    expect(r.stderr.match(/retry \d in [\d.]+ s: cannot connect \(ECONNREFUSED\)/g)).toHaveLength(2);
    expect(r.stderr).toContain("after 3 attempts (--retries 2)");
  });

  it("a service error is exit 4 with the service's detail and what to fix", async () => {
    const r = await cli(["analyse", "--mlflow-run", "0123abcd", "-q"]);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/answered 400 \(MLFLOW_NOT_CONFIGURED, request [\w-]+\): .*SERVICE_MLFLOW_TRACKING_URI/);
    expect(r.stderr).toContain("fix:");
  });

  it("--help leads with the purpose and examples; every flag is in it", async () => {
    const r = await cli(["analyse", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toMatch(/^ml-diagnose analyse: /);
    const { ANALYSE_OPTIONS } = await import("../../client/cli/options.js");
    for (const flag of Object.keys(ANALYSE_OPTIONS)) expect(r.stdout).toContain(`--${flag}`);
  });
});
