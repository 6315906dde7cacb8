import type { AnalyzerRun } from "../analyzer-spec.js";
import { buildCheckpointInfo } from "./build-info.js";
import { locateAndScan } from "./locate.js";
import { isRecord } from "./metadata.js";
import type { CheckpointInfo } from "./table.js";

export type { CheckpointInfo } from "./table.js";

/** Reads `model_checkpoint_artifacts`: scans the file its checkpoint_path names, when there is one, and the metadata. */
export async function parseCheckpointArtifact(payload: Record<string, unknown>, run: AnalyzerRun): Promise<CheckpointInfo> {
  const metadata = isRecord(payload.metadata) ? payload.metadata : {};
  const path = typeof payload.checkpoint_path === "string" ? payload.checkpoint_path : null;
  return buildCheckpointInfo(path, metadata, await locateAndScan(path, run));
}
