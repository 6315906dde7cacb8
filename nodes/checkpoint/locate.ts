import { access } from "node:fs/promises";
import type { AnalyzerRun } from "../analyzer.js";
import type { FileOutcome } from "./build-info.js";
import { scanCheckpointFile } from "./file/scan.js";
import { checkpointDownloadPath, resolveCheckpointPath } from "./paths.js";

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

async function scan(path: string, run: AnalyzerRun): Promise<FileOutcome> {
  const maxScanBytes = run.deps.settings.SERVICE_MAX_CHECKPOINT_BYTES;
  const result = await scanCheckpointFile(path, { signal: run.signal, maxBytes: maxScanBytes, onProgress: progressReporter(run) });
  return { scan: result, note: null, maxScanBytes };
}

/**
 * Finds and scans the file checkpoint_path names: a file under SERVICE_ARTIFACT_ROOTS, or for an MLflow URI the
 * copy the download step left in the request's workspace. A refused path throws CheckpointPathError (the HTTP
 * layer refuses it earlier with a 400; here it becomes the agent's error). No file → metadata only, with a note.
 */
export async function locateAndScan(path: string | null, run: AnalyzerRun): Promise<FileOutcome> {
  const maxScanBytes = run.deps.settings.SERVICE_MAX_CHECKPOINT_BYTES;
  if (!path) return { scan: null, note: null, maxScanBytes };
  const resolved = await resolveCheckpointPath(path, run.deps.settings.SERVICE_ARTIFACT_ROOTS);
  if (resolved.kind === "file") return scan(resolved.path, run);
  const workspace = run.deps.workspace;
  const local = workspace ? checkpointDownloadPath(workspace, resolved.uri) : null;
  if (!workspace || !local || !(await exists(local))) {
    return { scan: null, note: `${resolved.uri}: MLflow URI, file not downloaded; metadata analyzed only`, maxScanBytes };
  }
  // The downloaded copy must itself stay inside the workspace (no symlink out of it).
  const inWorkspace = await resolveCheckpointPath(local, [workspace]);
  return inWorkspace.kind === "file" ? scan(inWorkspace.path, run) : { scan: null, note: null, maxScanBytes };
}
