import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, openSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { inject } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** One MLflow release of scripts/mlflow/versions and its venv (made by scripts/setup-mlflow.sh). */
export interface MlflowRelease {
  version: string;
  bin: string;
  python: string;
}

/** The releases listed for the tests whose venv is installed (npm test runs setup-mlflow.sh first). */
export function installedMlflowReleases(): MlflowRelease[] {
  return readFileSync(join(ROOT, "scripts/mlflow/versions"), "utf8")
    .split("\n")
    .map((line) => line.trim().split(/\s+/)[0] ?? "")
    .filter((v) => v !== "" && !v.startsWith("#"))
    .map((version) => {
      const venv = join(ROOT, ".cache", `mlflow-${version}`);
      return { version, bin: join(venv, "bin", "mlflow"), python: join(venv, "bin", "python") };
    })
    .filter((r) => existsSync(join(ROOT, ".cache", `mlflow-${r.version}`, ".installed")));
}

export interface MlflowServer {
  release: MlflowRelease;
  url: string;
  /** The server's temp dir (SQLite store, artifacts, log). */
  dir: string;
  /** The server process's pid, for telling a server that died from one still starting. */
  pid: number;
}

/** A server this process started: it stops it. */
export interface LaunchedMlflowServer extends MlflowServer {
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Environment of the child processes: no job runner (3.x starts huey workers otherwise), a private HOME. */
function childEnv(dir: string): Record<string, string> {
  return { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: dir, LANG: "C.UTF-8", MLFLOW_SERVER_ENABLE_JOB_EXECUTION: "false", PYTHONUNBUFFERED: "1" };
}

/**
 * Starts `mlflow server` on a free loopback port with a temp SQLite store and proxied artifacts
 * (`--serve-artifacts`), without waiting for it to answer (waitHealthy does that). The server runs in its own process
 * group so stop() ends it and every worker it forked.
 */
export async function launchMlflowServer(release: MlflowRelease): Promise<LaunchedMlflowServer> {
  const dir = await mkdtemp(join(tmpdir(), `mlflow-${release.version}-`));
  const port = await freePort();
  const log = openSync(join(dir, "server.log"), "a");
  const child: ChildProcess = spawn(
    release.bin,
    ["server", "--backend-store-uri", `sqlite:///${dir}/mlflow.db`, "--artifacts-destination", join(dir, "artifacts"), "--serve-artifacts", "--host", "127.0.0.1", "--port", String(port), "--workers", "1"],
    { cwd: dir, env: childEnv(dir), detached: true, stdio: ["ignore", log, log] },
  );
  let exited: number | null = null;
  const gone = new Promise<void>((resolve) => child.once("exit", (code) => ((exited = code ?? -1), resolve())));
  const stop = async () => {
    if (exited === null && child.pid) {
      process.kill(-child.pid, "SIGTERM");
      const timer = setTimeout(() => exited === null && process.kill(-child.pid!, "SIGKILL"), 10_000);
      await gone;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  return { release, url: `http://127.0.0.1:${port}`, dir, pid: child.pid!, stop };
}

/** Whether the process is still there (signal 0 only checks; the parent reaps an exited server at once). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until the server answers /health; throws with the tail of its log when it exits or the wait runs out. */
export async function waitHealthy(server: MlflowServer, waitMs = 240_000): Promise<void> {
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline && alive(server.pid)) {
    if (await fetch(`${server.url}/health`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  const tail = readFileSync(join(server.dir, "server.log"), "utf8").slice(-2000);
  throw new Error(`mlflow ${server.release.version} server did not become healthy (${alive(server.pid) ? "still starting" : "exited"}):\n${tail}`);
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The tracking servers test/support/shared-mlflow-servers.ts started for this run, one per installed release. */
    mlflowServers: Array<{ version: string; url: string; dir: string; pid: number }>;
  }
}

/**
 * The run's tracking server of a release (started once per run by the globalSetup shared-mlflow-servers.ts,
 * stopped at its end), once it answers. Test files share it, each under experiment names of its own: a server
 * start costs seconds of CPU, once per release instead of once per file and release.
 */
export async function sharedMlflowServer(release: MlflowRelease): Promise<MlflowServer> {
  const started = inject("mlflowServers").find((s) => s.version === release.version);
  if (!started) throw new Error(`no MLflow ${release.version} server for this run: is test/support/shared-mlflow-servers.ts the project's globalSetup?`);
  const server = { release, url: started.url, dir: started.dir, pid: started.pid };
  await waitHealthy(server);
  return server;
}

/** Runs a script of scripts/mlflow/ with the release's Python; returns the last stdout line parsed as JSON. */
export async function runMlflowScript(server: MlflowServer, script: string, args: string[]): Promise<unknown> {
  const { stdout } = await promisify(execFile)(server.release.python, [join(ROOT, "scripts/mlflow", script), server.url, ...args], {
    cwd: server.dir,
    env: { ...childEnv(server.dir), MLFLOW_TRACKING_URI: server.url },
    maxBuffer: 16 * 1024 * 1024,
  });
  const last = stdout.trim().split("\n").at(-1) ?? "";
  return JSON.parse(last);
}

/** A pass-through proxy to the tracking server that, for matching paths, sends half the body and then stalls. */
export interface StallingProxy {
  url: string;
  /** Resolves when a matching download has sent its half. */
  stalled: Promise<void>;
  close(): Promise<void>;
}

export async function startStallingProxy(target: string, stallWhen: (path: string) => boolean): Promise<StallingProxy> {
  let markStalled!: () => void;
  const stalled = new Promise<void>((resolve) => (markStalled = resolve));
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } }, (up) => {
      if (!stallWhen(req.url ?? "")) {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      up.on("data", (c: Buffer) => chunks.push(c));
      up.on("end", () => {
        const body = Buffer.concat(chunks);
        const { "transfer-encoding": _chunked, ...headers } = up.headers;
        res.writeHead(up.statusCode ?? 200, { ...headers, "content-length": String(body.length) });
        res.write(body.subarray(0, Math.floor(body.length / 2)));
        markStalled();
      });
    });
    // MLflow closing a connection without an answer (a worker recycled, the proxy's client gone) reaches the
    // service as a dropped connection, as it would from a real proxy, instead of an unhandled error in the tests.
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stalled,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
