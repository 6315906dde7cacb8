import { readdirSync } from "node:fs";
import { basename } from "node:path";
import { WORKSPACE_PREFIX } from "../../artifacts/workspace.js";

/** Workspaces left anywhere under `dir` (they live in a directory per process, which may itself remain). */
export function workspacesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map(String).filter((p) => basename(p).startsWith(WORKSPACE_PREFIX));
}
