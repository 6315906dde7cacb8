import { realpath } from "node:fs/promises";
import { scanCheckpointFolder } from "../../nodes/checkpoint/file/folder.js";
import { scanCheckpointFile } from "../../nodes/checkpoint/file/scan.js";
import type { CheckpointScan } from "../../nodes/checkpoint/file/scan-types.js";
import type { CheckpointChoice } from "../detect/detect-run.js";
import { checkpointMetadata } from "./scan-metadata.js";

/** A checkpoint read on this machine: what is sent, and what the person must hear now. */
export interface LocalCheckpoint {
  metadata: Record<string, unknown>;
  /** Safety and integrity faults the metadata cannot carry to the service; printed on stderr. */
  warnings: string[];
  bytesScanned: number;
}

/**
 * What a scan found that request metadata cannot carry (the service reads these facts only from a file it scans
 * itself): dangerous imports, unverifiable parts, a damaged file, non-finite optimizer state. `--server-paths`
 * gets them into the report when the service runs on this machine.
 */
function scanWarnings(scan: CheckpointScan): string[] {
  const out: string[] = [];
  for (const p of scan.pickles) {
    const dangerous = p.globals.filter((g) => g.safety === "dangerous");
    if (dangerous.length > 0) {
      out.push(`${p.entry} imports ${dangerous.map((g) => `${g.module}.${g.name}`).join(", ")}: loading it runs code; do not torch.load/pickle.load this file`);
    }
  }
  for (const u of scan.unverified) out.push(`${u.entry} could not be checked for unsafe pickles: ${u.reason}`);
  for (const i of scan.issues) out.push(`damaged checkpoint (${i.kind}): ${i.detail}`);
  const diverged = scan.tensors.filter((t) => t.group === "optimizer" && t.stats && t.stats.nanCount + t.stats.posInfCount + t.stats.negInfCount > 0);
  if (diverged.length > 0) out.push(`optimizer state holds NaN/Inf in ${diverged.length} tensor(s) (${diverged[0]!.name}…): resuming from this checkpoint continues a diverged run`);
  return out;
}

/**
 * Scans the chosen checkpoint with the service's own reader (never unpickling anything) and turns it into
 * request metadata with `tensor_stats`, so a remote service never needs the file.
 */
export async function scanLocalCheckpoint(choice: CheckpointChoice, onProgress?: (done: number, total: number) => void): Promise<LocalCheckpoint> {
  const options = { onProgress: onProgress && ((p: { bytesRead: number; bytesTotal: number }) => onProgress(p.bytesRead, p.bytesTotal)) };
  const scan = choice.files
    ? await scanCheckpointFolder(choice.path, await Promise.all(choice.files.map(async (f) => ({ ...f, path: await realpath(f.path) }))), options)
    : await scanCheckpointFile(choice.path, options);
  return { metadata: checkpointMetadata(scan), warnings: scanWarnings(scan), bytesScanned: scan.bytesScanned };
}
