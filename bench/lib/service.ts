import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { groupCpuMs, spawnTracked, type Tracked } from "./processes.js";

/** The repository root and the git-ignored folder for logs of the processes the bench starts. */
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const OUT_DIR = join(ROOT, "bench", "out");
export const TSX = join(ROOT, "node_modules", ".bin", "tsx");

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.listen(0, "127.0.0.1", resolve).once("error", reject));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== "object" || !address) throw new Error("no port assigned");
  return address.port;
}

const INHERITED = ["PATH", "HOME", "LANG", "TMPDIR", "TERM"];

/**
 * The environment of every process the bench starts: nothing inherited but the basics, so a SERVICE_* variable
 * in the caller's shell (an LLM cache, a real API key) never changes what is measured.
 */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of INHERITED) if (process.env[name] !== undefined) env[name] = process.env[name];
  return { ...env, ...extra };
}

export interface RunningService {
  url: string;
  /** Milliseconds from spawn to the first 200 from /readyz. */
  readyMs: number;
  process: Tracked;
  /** CPU time the service's processes have used so far (ms), or null where /proc is missing. */
  cpuMs(): number | null;
  stop(): Promise<void>;
}

/**
 * The node flags and environment defaults of `npm start`, read from package.json's start script (`NAME=${NAME:-value}
 * … node [--flags] dist/server/main.js`), so that a service the bench runs under plain node gets exactly the
 * production flags and malloc settings, set in one place (none copied here).
 */
function startCommand(): { flags: string[]; env: Record<string, string> } {
  const start = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts?: { start?: string } }).scripts?.start ?? "";
  const match = /^((?:[A-Z_]+=\$\{[A-Z_]+:-[^}\s]*\}\s+)*)node((?:\s+--\S+)*)\s+dist\/server\/main\.js$/.exec(start.trim());
  if (!match) throw new Error(`package.json's start script is not "[NAME=\${NAME:-value} …] node [--flags] dist/server/main.js": ${start}`);
  const env = Object.fromEntries([...match[1]!.matchAll(/([A-Z_]+)=\$\{[A-Z_]+:-([^}\s]*)\}/g)].map((m) => [m[1]!, m[2]!]));
  return { flags: match[2]!.split(/\s+/).filter(Boolean), env };
}

let built = false;

/** Compiles dist/ as `npm install` does, once per bench run, so the service measured is of the current sources. */
export function buildOnce(): void {
  if (built) return;
  const run = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: ROOT, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`npm run build failed:\n${run.stdout}${run.stderr}`);
  built = true;
}

export interface StartOptions {
  /** Script relative to the root; by default dist/server/main.js, built first: exactly what `npm start` runs. */
  entry?: string;
  /** Plain node (as `npm start`, and for baselines), or tsx for the sources as `npm run dev` runs them. */
  launcher?: "tsx" | "node";
  /** Pass the port as the script's first argument too (for baselines that read no environment). */
  portArgument?: boolean;
  /** Further arguments to the script. */
  args?: string[];
  /** Service settings (PORT and HOST are chosen here). */
  env?: Record<string, string>;
  /** Name of the log file under bench/out/. */
  name: string;
  readyPath?: string;
  timeoutMs?: number;
}

/** Polls `url` until it answers 200, the process exits, or the deadline passes. */
export async function waitForOk(url: string, tracked: Tracked, timeoutMs: number, logFile: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let exited = false;
  void tracked.exited.then(() => (exited = true));
  while (performance.now() < deadline) {
    if (exited) throw new Error(`process exited before ${url} answered; see ${logFile}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms; see ${logFile}`);
}

/** Starts the service (or another server script) on a free loopback port and waits until it is ready. */
export async function startService(options: StartOptions): Promise<RunningService> {
  if (options.entry === undefined) buildOnce();
  const port = await freePort();
  const logFile = join(OUT_DIR, `${options.name}.log`);
  const command = options.launcher === "tsx" ? TSX : process.execPath;
  // Plain node runs with the flags and environment defaults of `npm start` (source maps on: their maps are read at load).
  const start = options.launcher === "tsx" ? { flags: [], env: {} } : startCommand();
  const nodeFlags = start.flags;
  const args = [...nodeFlags, options.entry ?? "dist/server/main.js", ...(options.portArgument ? [String(port)] : []), ...(options.args ?? [])];
  const started = performance.now();
  const tracked = spawnTracked(command, args, {
    cwd: ROOT,
    env: childEnv({ ...start.env, ...options.env, PORT: String(port), HOST: "127.0.0.1" }),
    logFile,
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForOk(`${url}${options.readyPath ?? "/readyz"}`, tracked, options.timeoutMs ?? 60_000, logFile);
  } catch (err) {
    await tracked.stop();
    throw err;
  }
  return {
    url,
    readyMs: performance.now() - started,
    process: tracked,
    cpuMs: () => groupCpuMs(tracked.child.pid!),
    stop: () => tracked.stop(),
  };
}

/** Runs `fn` with a started service and always stops it, also when `fn` throws. */
export async function withService<T>(options: StartOptions, fn: (service: RunningService) => Promise<T>): Promise<T> {
  const service = await startService(options);
  try {
    return await fn(service);
  } finally {
    await service.stop();
  }
}
