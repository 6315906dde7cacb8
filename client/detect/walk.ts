import { readdir, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";

/** A regular file found under a run folder. */
export interface FoundFile {
  path: string;
  /** Path relative to the folder given on the command line (the file name for a file given directly). */
  relative: string;
  size: number;
}

/** Levels of subfolders read below a given folder: mlruns/<exp>/<run>/artifacts/model/data/… fits. */
const MAX_DEPTH = 6;
/** Files listed per folder given; a folder with more is not a run folder (a dataset, a home directory). */
const MAX_FILES = 5000;
/**
 * Folders that never hold run artifacts (MLflow keeps deleted runs in .trash) and can be huge. `wandb/` is read:
 * its run folders are W&B runs (client/detect/wandb-run.ts), and its symlinks (latest-run, debug.log) are not followed.
 */
const SKIPPED_DIRS = new Set([".git", ".trash", "node_modules", "__pycache__", ".ipynb_checkpoints", ".venv"]);

/**
 * Lists the regular files below `root` (symlinks are not followed: a run folder that links elsewhere is not
 * read outside itself), at most MAX_DEPTH levels deep, in `rankFiles` order. Throws past MAX_FILES.
 */
export async function listRunFiles(root: string): Promise<FoundFile[]> {
  const out: FoundFile[] = [];
  const visit = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (depth < MAX_DEPTH && !SKIPPED_DIRS.has(e.name)) await visit(path, depth + 1);
      } else if (e.isFile()) {
        if (out.length >= MAX_FILES) throw new Error(`more than ${MAX_FILES} files below it: name the run folder itself, not a parent of many runs`);
        out.push({ path, relative: relative(root, path), size: (await stat(path)).size });
      }
    }
  };
  await visit(root, 0);
  return rankFiles(out);
}

/** `checkpoint-500` → 500: the Trainer's step-numbered checkpoint folders. */
function checkpointStep(dirName: string): number | null {
  const m = /^checkpoint-(\d+)$/.exec(dirName);
  return m ? Number(m[1]) : null;
}

function newestCheckpointStep(relativePath: string): number {
  const steps = relativePath.split(sep).slice(0, -1).map(checkpointStep).filter((s): s is number => s !== null);
  return steps.length > 0 ? Math.max(...steps) : Number.POSITIVE_INFINITY;
}

/**
 * Order in which files claim an artifact (the first of a kind wins): shallower first, so an output folder's own
 * trainer_state.json and final weights beat those of its checkpoints; then the newest `checkpoint-N/` first;
 * then by path.
 */
export function rankFiles(files: FoundFile[]): FoundFile[] {
  const depth = (f: FoundFile) => f.relative.split(sep).length;
  return [...files].sort(
    (a, b) =>
      depth(a) - depth(b) ||
      newestCheckpointStep(b.relative) - newestCheckpointStep(a.relative) ||
      (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0),
  );
}

