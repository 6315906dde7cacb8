import { mkdtemp, rm } from "node:fs/promises";
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

/** Runs `fn` with a workspace that is removed afterwards, whether `fn` returns, throws or is aborted. */
export async function withWorkspace<T>(fn: (workspace: Workspace) => Promise<T>, root?: string): Promise<T> {
  const workspace = await createWorkspace(root);
  try {
    return await fn(workspace);
  } finally {
    await workspace.dispose();
  }
}
