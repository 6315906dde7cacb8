import { realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";

/** The rule a refused checkpoint_path broke; part of the 400 answer. */
export type CheckpointPathRule =
  | "EMPTY"
  | "NUL_BYTE"
  | "UNSUPPORTED_SCHEME"
  | "NOT_ABSOLUTE"
  | "DOT_DOT_SEGMENT"
  | "NO_ROOTS_CONFIGURED"
  | "OUTSIDE_ROOTS"
  | "SYMLINK_ESCAPE"
  | "NOT_FOUND"
  | "NOT_A_FILE";

/** The request field every refusal names. */
export const CHECKPOINT_PATH_FIELD = "model_checkpoint_artifacts.checkpoint_path";

/** A checkpoint_path the service will not read: the HTTP layer answers 400 with `code`, `rule` and the message. */
export class CheckpointPathError extends Error {
  override name = "CheckpointPathError";
  readonly code = "CHECKPOINT_PATH_REFUSED" as const;
  readonly status = 400;
  readonly field = CHECKPOINT_PATH_FIELD;
  constructor(readonly rule: CheckpointPathRule, detail: string) {
    super(`${CHECKPOINT_PATH_FIELD}: refused (${rule}): ${detail}`);
  }
}

/** Where a checkpoint_path points once checked. */
export type ResolvedCheckpointPath =
  | { kind: "mlflow"; uri: string }
  | { kind: "file"; path: string; size: number };

const MLFLOW_URI = /^(runs|models|mlflow-artifacts):\//;
const ANY_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** `runs:/…`, `models:/…` or `mlflow-artifacts:/…`. */
export function isMlflowUri(path: string): boolean {
  return MLFLOW_URI.test(path);
}

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

async function realRoots(roots: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const r of roots) {
    try {
      out.push(await realpath(resolve(r)));
    } catch {
      // A configured root that does not exist admits nothing.
    }
  }
  return out;
}

/**
 * Checks a request's checkpoint_path against the rules of ARTIFACTS.md: an MLflow URI (no `..` segments), or an
 * absolute path to a regular file under one of `roots` (SERVICE_ARTIFACT_ROOTS) that stays inside it after
 * resolving symlinks (fs.realpath on both sides). Reads only file-system metadata. Throws CheckpointPathError
 * naming the rule; the HTTP layer calls this while validating the request so a refusal is a 400 before the graph.
 */
export async function resolveCheckpointPath(path: string, roots: readonly string[]): Promise<ResolvedCheckpointPath> {
  if (path.trim() === "") throw new CheckpointPathError("EMPTY", "the path is empty");
  if (path.includes("\0")) throw new CheckpointPathError("NUL_BYTE", "the path contains a NUL byte");
  const segments = path.split(/[\\/]+/);
  if (segments.includes("..")) throw new CheckpointPathError("DOT_DOT_SEGMENT", "`..` segments are not allowed in a checkpoint path");
  if (isMlflowUri(path)) return { kind: "mlflow", uri: path };
  if (ANY_SCHEME.test(path)) {
    throw new CheckpointPathError("UNSUPPORTED_SCHEME", `only runs:/, models:/ and mlflow-artifacts:/ URIs or files under SERVICE_ARTIFACT_ROOTS are accepted, not ${path.split(":")[0]}:`);
  }
  if (!isAbsolute(path)) throw new CheckpointPathError("NOT_ABSOLUTE", "a file path must be absolute");
  if (roots.length === 0) throw new CheckpointPathError("NO_ROOTS_CONFIGURED", "SERVICE_ARTIFACT_ROOTS is empty, so no local checkpoint file is accepted");
  const lexical = resolve(path);
  if (!roots.some((r) => isInside(resolve(r), lexical))) {
    // The roots themselves are not named: they describe the server's file system, not the request.
    throw new CheckpointPathError("OUTSIDE_ROOTS", "the file is not under any of the directories in SERVICE_ARTIFACT_ROOTS");
  }
  let real: string;
  try {
    real = await realpath(lexical);
  } catch {
    throw new CheckpointPathError("NOT_FOUND", "no such file");
  }
  if (!(await realRoots(roots)).some((r) => isInside(r, real))) {
    throw new CheckpointPathError("SYMLINK_ESCAPE", "the path resolves, through a symlink, to a file outside SERVICE_ARTIFACT_ROOTS");
  }
  const info = await stat(real);
  if (!info.isFile()) throw new CheckpointPathError("NOT_A_FILE", "the path is not a regular file");
  return { kind: "file", path: real, size: info.size };
}

/**
 * Where the MLflow download step puts the checkpoint an MLflow URI names, inside the request's workspace
 * (deps.workspace); the checkpoint analyzer scans the file found there, and analyzes metadata only otherwise.
 */
export function checkpointDownloadPath(workspace: string, uri: string): string {
  const last = uri.replace(/\/+$/, "").split("/").at(-1) ?? "";
  const safe = last.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "");
  return join(workspace, "checkpoint", safe || "checkpoint");
}
