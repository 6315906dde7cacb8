import { rmSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";

/** Every workspace directory starts with this, so leftovers are easy to spot (and tests can look for them). */
export const WORKSPACE_PREFIX = "ml-diagnosis-ws-";
/** The directory holding one process's workspaces: `<prefix><host>-<pid>`, so a restart can tell whose they are. */
export const PROCESS_DIR_PREFIX = "ml-diagnosis-proc-";

/** A request's temporary directory for pulled artifacts. */
export interface Workspace {
  readonly dir: string;
  /** Removes the directory and everything in it; safe to call twice. */
  dispose(): Promise<void>;
}

/** A host name as it appears in a directory name. */
const hostInName = (host: string) => host.replace(/[^A-Za-z0-9._-]/g, "_");

/** The name of a process's workspace directory (this process's by default). */
export function processDirName(host: string = hostname(), pid: number = process.pid): string {
  return `${PROCESS_DIR_PREFIX}${hostInName(host)}-${pid}`;
}

/** Host and pid from a process directory's name, or null for any other name. */
function parseProcessDir(name: string): { host: string; pid: number } | null {
  if (!name.startsWith(PROCESS_DIR_PREFIX)) return null;
  const rest = name.slice(PROCESS_DIR_PREFIX.length);
  const dash = rest.lastIndexOf("-");
  const pid = Number(rest.slice(dash + 1));
  return dash > 0 && Number.isInteger(pid) && pid > 0 ? { host: rest.slice(0, dash), pid } : null;
}

/** Whether a process of this host is running (EPERM: it is, and belongs to someone else). */
export function pidIsRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Creates a fresh private directory in this process's directory under `root` (default: the OS temp dir). */
export async function createWorkspace(root: string = tmpdir()): Promise<Workspace> {
  const owner = join(root, processDirName());
  await mkdir(owner, { recursive: true, mode: 0o700 });
  const dir = await mkdtemp(join(owner, WORKSPACE_PREFIX));
  let disposed: Promise<void> | null = null;
  return {
    dir,
    dispose: () => (disposed ??= rm(dir, { recursive: true, force: true, maxRetries: 3 })),
  };
}

/**
 * Removes this process's directory with every workspace in it, synchronously: called as the process exits, so
 * requests cut short by the shutdown grace leave nothing behind.
 */
export function removeOwnWorkspaces(root: string = tmpdir()): void {
  rmSync(join(root, processDirName()), { recursive: true, force: true, maxRetries: 3 });
}

/**
 * Run at start-up, before this process creates any workspace. The directory of a process of this host that is
 * gone (its pid runs no more, or is our own: a restarted container gets its predecessor's pid) is removed at
 * once, whatever its age. What cannot be told apart from a live owner — a pid now reused by another process,
 * another host's directory on a shared volume, workspaces of the earlier flat layout — is removed only when
 * older than `olderThanMs` (no live request's workspace is older than the request time-out). Returns the paths
 * removed, relative to `root`.
 */
export async function sweepStaleWorkspaces(
  root: string = tmpdir(),
  olderThanMs: number,
  now: number = Date.now(),
  isRunning: (pid: number) => boolean = pidIsRunning,
): Promise<string[]> {
  const removed: string[] = [];
  const remove = async (name: string) => {
    try {
      await rm(join(root, name), { recursive: true, force: true, maxRetries: 3 });
      removed.push(name);
    } catch {
      // Another instance removed it first, or it is not ours to remove: leave it.
    }
  };
  const removeOld = async (names: string[]) => {
    for (const name of names) {
      const age = await stat(join(root, name)).then((s) => now - s.mtimeMs, () => 0);
      if (age >= olderThanMs) await remove(name);
    }
  };
  const ownHost = hostInName(hostname());
  for (const name of await readdir(root)) {
    if (name.startsWith(WORKSPACE_PREFIX)) {
      await removeOld([name]);
      continue;
    }
    const owner = parseProcessDir(name);
    if (!owner) continue;
    if (owner.host === ownHost && (owner.pid === process.pid || !isRunning(owner.pid))) {
      await remove(name);
      continue;
    }
    const inside = await readdir(join(root, name)).catch(() => [] as string[]);
    await removeOld(inside.filter((n) => n.startsWith(WORKSPACE_PREFIX)).map((n) => join(name, n)));
  }
  return removed;
}
