import { readdir, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { MLFLOW_SCHEMES, type MlflowUriRule, mlflowUriProblem } from "../../artifacts/mlflow/uri-rules.js";

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
  | "NOT_A_FILE"
  | "FOLDER_TOO_LARGE"
  | MlflowUriRule;

/** The request field every refusal names. */
export const CHECKPOINT_PATH_FIELD = "model_checkpoint_artifacts.checkpoint_path";

/** The error code of every refused checkpoint_path. */
export const CHECKPOINT_PATH_REFUSED = "CHECKPOINT_PATH_REFUSED";

/** A checkpoint_path the service will not read: the HTTP layer answers 400 with `code`, `rule` and the message. */
export class CheckpointPathError extends Error {
  override name = "CheckpointPathError";
  readonly code = CHECKPOINT_PATH_REFUSED;
  readonly status = 400;
  readonly field = CHECKPOINT_PATH_FIELD;
  constructor(readonly rule: CheckpointPathRule, detail: string) {
    super(`${CHECKPOINT_PATH_FIELD}: refused (${rule}): ${detail}`);
  }
}

/** A regular file inside a checkpoint folder, its real path checked to stay inside the roots. */
export interface FolderFile {
  /** Real path (symlinks resolved). */
  path: string;
  /** Path relative to the folder, as listed (`checkpoint-4/optimizer.pt`). */
  relative: string;
  size: number;
}

/** Where a checkpoint_path points once checked. */
export type ResolvedCheckpointPath =
  | { kind: "mlflow"; uri: string }
  | { kind: "file"; path: string; size: number }
  | { kind: "folder"; path: string; files: FolderFile[] };

/** A checkpoint folder holds at most this many files (a sharded model of a few hundred shards fits). */
export const MAX_FOLDER_FILES = 1000;
/** Levels of subfolders read below a checkpoint folder (`run/checkpoints/x.ckpt`, `output/checkpoint-4/…`). */
export const MAX_FOLDER_DEPTH = 3;

const MLFLOW_URI = new RegExp(`^(${MLFLOW_SCHEMES.join("|")}):/`);
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
 * Checks a request's checkpoint_path against the rules of ARTIFACTS.md: an MLflow URI (artifacts/mlflow/uri-rules.ts), or an
 * absolute path to a regular file or a checkpoint folder under one of `roots` (SERVICE_ARTIFACT_ROOTS) that stays
 * inside it after resolving symlinks (fs.realpath on both sides; for a folder, every file in it too). Reads only
 * file-system metadata. Throws CheckpointPathError
 * naming the rule; the HTTP layer calls this while validating the request so a refusal is a 400 before the graph.
 */
export async function resolveCheckpointPath(path: string, roots: readonly string[]): Promise<ResolvedCheckpointPath> {
  if (path.trim() === "") throw new CheckpointPathError("EMPTY", "the path is empty");
  if (path.includes("\0")) throw new CheckpointPathError("NUL_BYTE", "the path contains a NUL byte");
  const segments = path.split(/[\\/]+/);
  if (segments.includes("..")) throw new CheckpointPathError("DOT_DOT_SEGMENT", "`..` segments are not allowed in a checkpoint path");
  if (isMlflowUri(path)) {
    // The same rules as mlflow.run_uri (encoded dots, backslashes, absolute paths), before the tracking server sees it.
    const problem = mlflowUriProblem(path);
    if (problem) throw new CheckpointPathError(problem.rule, problem.detail);
    return { kind: "mlflow", uri: path };
  }
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
  if (info.isDirectory()) return { kind: "folder", path: real, files: await listFolder(real, await realRoots(roots)) };
  if (!info.isFile()) throw new CheckpointPathError("NOT_A_FILE", "the path is neither a regular file nor a folder");
  return { kind: "file", path: real, size: info.size };
}

/**
 * The regular files of a checkpoint folder, MAX_FOLDER_DEPTH levels deep, each resolved through its symlinks and
 * required to stay inside the roots: one escaping entry refuses the whole folder, as a file would be refused.
 * Hidden entries (`.git`, `.cache`) are skipped; a folder with more than MAX_FOLDER_FILES files is refused.
 */
async function listFolder(folder: string, roots: readonly string[]): Promise<FolderFile[]> {
  const files: FolderFile[] = [];
  const walk = async (dir: string, prefix: string, depth: number): Promise<void> => {
    for (const entry of (await readdir(dir)).sort()) {
      if (entry.startsWith(".")) continue;
      const relative = prefix ? `${prefix}/${entry}` : entry;
      let real: string;
      try {
        real = await realpath(join(dir, entry));
      } catch {
        continue; // a dangling symlink points at nothing to read
      }
      if (!roots.some((r) => isInside(r, real))) {
        throw new CheckpointPathError("SYMLINK_ESCAPE", `the folder's entry ${relative} resolves, through a symlink, outside SERVICE_ARTIFACT_ROOTS`);
      }
      const info = await stat(real);
      if (info.isDirectory()) {
        if (depth < MAX_FOLDER_DEPTH && !isInside(real, folder)) await walk(real, relative, depth + 1);
      } else if (info.isFile()) {
        files.push({ path: real, relative, size: info.size });
        if (files.length > MAX_FOLDER_FILES) {
          throw new CheckpointPathError("FOLDER_TOO_LARGE", `the folder holds more than ${MAX_FOLDER_FILES} files; name the checkpoint file or a smaller folder`);
        }
      }
    }
  };
  await walk(folder, "", 0);
  return files;
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
