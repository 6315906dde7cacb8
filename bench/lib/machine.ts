import { execFileSync } from "node:child_process";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";

/** The machine a run was measured on, as BENCHMARKS.md states it. */
export interface MachineInfo {
  nproc: number;
  memoryGiB: number;
  cpuModel: string;
  node: string;
  os: string;
  commit: string | null;
  dirty: boolean;
  /** 1-minute load average when the run started: other work on the shared machine skews every figure. */
  loadAtStart: number;
}

function git(args: string[]): string | null {
  try {
    return execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

/** The 1-minute load average, to two decimals. */
export const loadAverage = () => Math.round(loadavg()[0]! * 100) / 100;

/** Reads the machine's description: cores, memory, CPU model, Node version, and the commit measured. */
export function describeMachine(): MachineInfo {
  const status = git(["status", "--porcelain", "--untracked-files=no"]);
  return {
    nproc: availableParallelism(),
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    cpuModel: cpus()[0]?.model.trim() ?? "unknown",
    node: process.version,
    os: `${process.platform} ${process.arch}`,
    commit: git(["rev-parse", "--short", "HEAD"]),
    dirty: status !== null && status.length > 0,
    loadAtStart: loadAverage(),
  };
}
