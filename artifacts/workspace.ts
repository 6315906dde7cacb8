import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Every workspace directory starts with this, so leftovers are easy to spot (and tests can look for them). */
export const WORKSPACE_PREFIX = "ml-diagnosis-ws-";

/** A request's temporary directory for pulled artifacts. */
export interface Workspace {
  readonly dir: string;
  /** Removes the directory and everything in it; safe to call twice. */
  dispose(): Promise<void>;
}

/** Creates a fresh private directory under `root` (default: the OS temp dir). */
export async function createWorkspace(root: string = tmpdir()): Promise<Workspace> {
  const dir = await mkdtemp(join(root, WORKSPACE_PREFIX));
  let disposed: Promise<void> | null = null;
  return {
    dir,
    dispose: () => (disposed ??= rm(dir, { recursive: true, force: true, maxRetries: 3 })),
  };
}

/**
 * Removes workspaces older than `olderThanMs` left by a process that died without its `finally` (SIGKILL, OOM).
 * Run at start-up; a live request's workspace is never older than the request time-out, so twice that is safe
 * even with several instances sharing the directory. Returns the names removed.
 */
export async function sweepStaleWorkspaces(root: string = tmpdir(), olderThanMs: number, now: number = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(root)) {
    if (!name.startsWith(WORKSPACE_PREFIX)) continue;
    const dir = join(root, name);
    try {
      if (now - (await stat(dir)).mtimeMs < olderThanMs) continue;
      await rm(dir, { recursive: true, force: true, maxRetries: 3 });
      removed.push(name);
    } catch {
      // Another instance removed it first, or it is not ours to remove: leave it.
    }
  }
  return removed;
}
