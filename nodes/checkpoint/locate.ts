import { access } from "node:fs/promises";
import type { AnalyzerRun } from "../analyzer-spec.js";
import type { FileOutcome } from "./build-info.js";
import { scanCheckpointFile } from "./file/scan.js";
import { scanCheckpointFolder } from "./file/folder.js";
import { checkpointDownloadPath, type ResolvedCheckpointPath, resolveCheckpointPath } from "./paths.js";
import { poolScanSplitter } from "../../workers/scan-splitter.js";

/** Reports scan progress at most every 10 % so streaming clients see movement without a flood. */
function progressReporter(run: AnalyzerRun): (p: { bytesRead: number; bytesTotal: number }) => void {
  let next = 0.1;
  return ({ bytesRead, bytesTotal }) => {
    if (bytesTotal === 0 || bytesRead / bytesTotal < next) return;
    next = Math.floor((bytesRead / bytesTotal) * 10) / 10 + 0.1;
    run.progress(`checkpoint scan ${Math.round((100 * bytesRead) / bytesTotal)} % of ${Math.round(bytesTotal / 2 ** 20)} MiB`);
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

async function scan(target: ResolvedCheckpointPath & { kind: "file" | "folder" }, run: AnalyzerRun): Promise<FileOutcome> {
  const maxScanBytes = run.deps.settings.SERVICE_MAX_CHECKPOINT_BYTES;
  // A large file's tensor data is read by the worker pool, off the event loop and on every core.
  const options = { signal: run.signal, maxBytes: maxScanBytes, onProgress: progressReporter(run), split: poolScanSplitter };
  const result = target.kind === "folder" ? await scanCheckpointFolder(target.path, target.files, options) : await scanCheckpointFile(target.path, options);
  return { scan: result, note: null, maxScanBytes };
}

/**
 * Finds and scans the file or folder checkpoint_path names: under SERVICE_ARTIFACT_ROOTS, or for an MLflow URI the
 * copy the download step left in the request's workspace. A refused path throws CheckpointPathError (the HTTP
 * layer refuses it earlier with a 400; here it becomes the agent's error). No file → metadata only, with a note.
 */
export async function locateAndScan(path: string | null, run: AnalyzerRun): Promise<FileOutcome> {
  const maxScanBytes = run.deps.settings.SERVICE_MAX_CHECKPOINT_BYTES;
  if (!path) return { scan: null, note: null, maxScanBytes };
  const resolved = await resolveCheckpointPath(path, run.deps.settings.SERVICE_ARTIFACT_ROOTS);
  if (resolved.kind !== "mlflow") return scan(resolved, run);
  const workspace = run.deps.workspace;
  const local = workspace ? checkpointDownloadPath(workspace, resolved.uri) : null;
  if (!workspace || !local || !(await exists(local))) {
    return { scan: null, note: `${resolved.uri}: MLflow URI, file not downloaded; metadata analyzed only`, maxScanBytes };
  }
  // The downloaded copy (a file, or a folder such as an MLflow model) must itself stay inside the workspace.
  const inWorkspace = await resolveCheckpointPath(local, [workspace]);
  return inWorkspace.kind !== "mlflow" ? scan(inWorkspace, run) : { scan: null, note: null, maxScanBytes };
}
