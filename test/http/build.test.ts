import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexCorpus, readSnapshot } from "../../knowledge/snapshot.js";
import { answersOf } from "../support/knowledge-answers.js";
import { builtCli, builtDist } from "../support/built.js";

const root = new URL("../../", import.meta.url).pathname;
// The run's build (test/support/test-build.ts: scripts/build.mjs --out-dir, inside the checkout, so the built files
// resolve their packages from node_modules as dist/ does), which the tiers' processes run from as well.
const outDir = builtDist();
const sample = JSON.parse(readFileSync(new URL("../fixtures/samples/tabular-healthy.json", import.meta.url), "utf8"));

let child: ChildProcess | null = null;
let url = "";
/** What the built server wrote to stdout and stderr. */
const lines: string[] = [];

/** Starts the compiled server with plain node (no TypeScript loader anywhere) on a free port. */
async function startBuilt(): Promise<void> {
  child = spawn(process.execPath, ["--enable-source-maps", join(outDir, "server", "main.js")], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: "0", HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child!.stdout!.on("data", (chunk: Buffer) => {
      lines.push(chunk.toString());
      const match = /"msg":"listening".*"port":(\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child!.stderr!.on("data", (chunk: Buffer) => lines.push(chunk.toString()));
    child!.on("exit", (code) => reject(new Error(`exited ${code}: ${lines.join("")}`)));
  });
  url = `http://127.0.0.1:${port}`;
}

describe("the production build", { timeout: 120_000 }, () => {
  beforeAll(startBuilt);
  afterAll(() => {
    child?.kill("SIGKILL");
  });

  it("holds compiled JavaScript with source maps and the run-time files, and no TypeScript", () => {
    for (const file of ["server/main.js", "server/main.js.map", "workers/entry.mjs", "workers/tasks.js", "report/report.css", "web"]) {
      expect(existsSync(join(outDir, file)), file).toBe(true);
    }
    expect(existsSync(join(outDir, "server", "main.ts"))).toBe(false);
  });

  it("runs the server from one bundled file whose source map leads back to the TypeScript sources", () => {
    const entry = readFileSync(join(outDir, "server", "main.js"), "utf8");
    // Its packages are inside it: no import of LangChain, zod or express is left for Node to resolve file by file.
    expect(entry).not.toMatch(/^import .* from "(@langchain\/|zod|express)/m);
    expect(entry).toMatch(/^\/\/# sourceMappingURL=main\.js\.map$/m);
    const map = JSON.parse(readFileSync(join(outDir, "server", "main.js.map"), "utf8")) as { sources: string[] };
    const sources = map.sources.map((s) => join(outDir, "server", s));
    for (const file of ["server/main.ts", "graph/build.ts", "nodes/training/node.ts"]) expect(sources).toContain(join(root, file));
  });

  it("serves an analysis with citations from the copied knowledge corpus under plain node", async () => {
    const res = await fetch(`${url}/v1/analyse`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(sample) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.dataset_name).toBe(sample.dataset_name);
    expect(Object.keys(body.agent_results)).toContain("TrainingArtifactsAnalyzer");
    expect(body.additional_outputs.citations.length).toBeGreaterThan(0);
  });

  it("serves the debug page from the copied web folder", async () => {
    const res = await fetch(`${url}/debug`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/<html/i);
  });

  it("parses a body over 1 MiB on the worker pool from the compiled task registry", async () => {
    const metrics = sample.training_artifacts.metrics as Record<string, Array<{ step: number; value: number }>>;
    const points = Array.from({ length: 20_000 }, (_, step) => ({ key: "train_loss", value: 1 / (1 + step / 100), timestamp: 0, step }));
    const big = { ...sample, training_artifacts: { ...sample.training_artifacts, metrics: { ...metrics, train_loss: points } } };
    const text = JSON.stringify(big);
    expect(text.length).toBeGreaterThan(1 << 20);
    const res = await fetch(`${url}/v1/analyse`, { method: "POST", headers: { "content-type": "application/json" }, body: text });
    expect(res.status).toBe(200);
    expect((await res.json()).error_messages).toEqual({});
  });

  // After every request to the server: indexing the corpus twice blocks this process for seconds on a loaded
  // machine, long enough for the server to close an idle kept-alive socket that fetch would then reuse.
  it("ships the knowledge corpus indexed, answering every query as the index built from the sources does", () => {
    const shipped = readSnapshot(join(outDir, "knowledge", "corpus-index.json"));
    expect(shipped).not.toBeNull();
    const sources = indexCorpus();
    expect(shipped!.docs).toEqual(sources.docs);
    expect(answersOf(shipped!)).toEqual(answersOf(sources));
    // And the built server started from it rather than from the corpus.
    expect(lines.join("")).toMatch(/"msg":"knowledge base ready".*"index":"built"/);
  });

  /** The compiled command run under plain node as the launcher runs it. */
  const builtCli = (args: string[]) => {
    const entry = new URL(join(outDir, "client", "main.js"), `file://${root}`).href;
    const script = `const { main } = await import(${JSON.stringify(entry)}); process.exitCode = await main(${JSON.stringify(args)}, { stdout: process.stdout, stderr: process.stderr, env: {} });`;
    return spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8", env: { PATH: process.env.PATH } });
  };

  it("holds the ml-diagnose command compiled, which runs under plain node as the launcher runs it", () => {
    const run = builtCli(["--help"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Usage: ml-diagnose <command>/m);
  });

  it("ml-diagnose --version prints the package's version from the build", () => {
    const run = builtCli(["--version"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version}\n`);
  });
});

describe("the ml-diagnose launcher", { timeout: 120_000 }, () => {
  const version = `${JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version}\n`;
  const launch = (launcher: string, env: Record<string, string>) =>
    spawnSync(process.execPath, [launcher, "--version"], { cwd: root, encoding: "utf8", env: { PATH: process.env.PATH, ...env } });

  it("runs the compiled command when a build sits beside it (as after npm install)", () => {
    const run = launch(builtCli(), {});
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(version);
  });

  // Every other test runs the build; this one keeps the checkout's way in (`npm run dev`, a clone without a build).
  it("runs the TypeScript sources through tsx with ML_DIAGNOSE_FROM_SOURCES=1", () => {
    const run = launch("client/bin/ml-diagnose.mjs", { ML_DIAGNOSE_FROM_SOURCES: "1" });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(version);
  });
});
