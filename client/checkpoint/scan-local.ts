import { realpath } from "node:fs/promises";
import { scanCheckpointFolder } from "../../nodes/checkpoint/file/folder.js";
import { scanCheckpointFile } from "../../nodes/checkpoint/file/scan.js";
import type { CheckpointChoice } from "../detect/detect-run.js";
import { checkpointMetadata } from "./scan-metadata.js";

/**
 * Scans the chosen checkpoint with the service's own reader (never unpickling anything) and turns it into
 * request metadata with `tensor_stats` and the scan's findings, so a remote service never needs the file.
 * `onProgress` gets bytes of tensor data read and to read.
 */
export async function scanLocalCheckpoint(choice: CheckpointChoice, onProgress?: (done: number, total: number) => void): Promise<Record<string, unknown>> {
  const options = { onProgress: onProgress && ((p: { bytesRead: number; bytesTotal: number }) => onProgress(p.bytesRead, p.bytesTotal)) };
  const scan = choice.files
    ? await scanCheckpointFolder(choice.path, await Promise.all(choice.files.map(async (f) => ({ ...f, path: await realpath(f.path) }))), options)
    : await scanCheckpointFile(choice.path, options);
  return checkpointMetadata(scan);
}
