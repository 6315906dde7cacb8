import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";

/** Every process the bench started and has not seen exit: killed on any way out, so nothing is left behind. */
const live = new Set<ChildProcess>();

/** Signals the child's whole process group (tsx runs the service in a child of its own), leader gone or not. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is empty
  }
}

/** Kills every live child group at once; safe to call from an 'exit' handler (synchronous). */
export function killAllChildren(): void {
  for (const child of live) killGroup(child, "SIGKILL");
}

let installed = false;
/** Makes sure no child outlives the bench: normal exit, Ctrl-C, SIGTERM, or an uncaught error. */
export function installCleanup(): void {
  if (installed) return;
  installed = true;
  process.on("exit", killAllChildren);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      killAllChildren();
      process.exit(130);
    });
  }
}

export interface Tracked {
  child: ChildProcess;
  /** Resolves with the exit code (or null when killed by a signal). */
  exited: Promise<number | null>;
  /** SIGTERM to the group, SIGKILL after `graceMs`; resolves when the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** stdout and stderr go here (git-ignored bench/out/), so a failure can be read afterwards. */
  logFile: string;
}

/** Starts a command in its own process group, tracked until it exits. */
export function spawnTracked(command: string, args: string[], options: SpawnOptions): Tracked {
  mkdirSync(dirname(options.logFile), { recursive: true });
  const fd = openSync(options.logFile, "w");
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ["ignore", fd, fd] });
  closeSync(fd);
  live.add(child);
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => {
      live.delete(child);
      resolve(code);
    });
    child.once("error", () => {
      live.delete(child);
      resolve(null);
    });
  });
  return {
    child,
    exited,
    async stop(graceMs = 5000) {
      if (live.has(child)) {
        killGroup(child, "SIGTERM");
        const timer = setTimeout(() => killGroup(child, "SIGKILL"), graceMs);
        await exited;
        clearTimeout(timer);
      }
      // The group may hold a grandchild that outlived its parent.
      killGroup(child, "SIGKILL");
    },
  };
}

/**
 * Tracks a child until it has exited and its stdio and IPC have closed (so no output or message is still on the
 * way), killing its group if that takes longer than `timeoutMs`.
 */
async function closedWithin(child: ChildProcess, timeoutMs: number): Promise<[number | null, NodeJS.Signals | null]> {
  live.add(child);
  const timer = setTimeout(() => killGroup(child, "SIGKILL"), timeoutMs);
  try {
    return (await once(child, "close")) as [number | null, NodeJS.Signals | null];
  } finally {
    clearTimeout(timer);
    live.delete(child);
  }
}

/**
 * Runs a worker in a fresh Node process (so its peak RSS is its own) and resolves with the one message it sends
 * over IPC: TypeScript through tsx, or plain JavaScript under plain node (`launcher: "node"`), so a worker that
 * measures memory as `npm start` would does not carry a TypeScript loader. The worker is killed after `timeoutMs`.
 */
export async function runWorker<T>(script: string, args: string[], options: SpawnOptions & { timeoutMs: number; launcher?: "tsx" | "node" }): Promise<T> {
  mkdirSync(dirname(options.logFile), { recursive: true });
  const fd = openSync(options.logFile, "w");
  const loader = options.launcher === "node" ? [] : ["--import", "tsx"];
  const child = spawn(process.execPath, [...loader, script, ...args], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["ignore", fd, fd, "ipc"],
  });
  closeSync(fd);
  let message: T | undefined;
  child.on("message", (m) => (message = m as T));
  const [code, signal] = await closedWithin(child, options.timeoutMs);
  if (message === undefined) {
    throw new Error(`worker ${script} ${args.join(" ")} sent no result (exit ${code ?? signal}); see ${options.logFile}`);
  }
  return message;
}

/** Runs a command to completion (tracked like the rest) and resolves with its stdout; rejects on a non-zero exit. */
export async function runCommand(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<string> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (s: string) => (stdout += s));
  child.stderr!.setEncoding("utf8").on("data", (s: string) => (stderr += s));
  const [code, signal] = await closedWithin(child, options.timeoutMs);
  if (code !== 0) throw new Error(`${command} ${args.join(" ")} failed (${code ?? signal}): ${stderr.trim().slice(-500)}`);
  return stdout;
}

const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system, ms) used so far by every live process in a process group, read from /proc; null
 * where there is no /proc. Tells how much of a wall time was the service computing rather than waiting.
 */
export function groupCpuMs(pgid: number): number | null {
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((e) => /^\d+$/.test(e));
  } catch {
    return null;
  }
  let ticks = 0;
  for (const pid of entries) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // Fields after the command name (which may hold spaces): state ppid pgrp … utime(14) stime(15).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}
