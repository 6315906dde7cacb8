/** What is known of a checkpoint from its metadata (and, later, from the file itself). */
export interface CheckpointInfo {
  path: string | null;
  metadata: Record<string, unknown>;
  nanCount: number;
  infCount: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

export function parseCheckpointArtifact(payload: Record<string, unknown>): CheckpointInfo {
  const metadata = isRecord(payload.metadata) ? payload.metadata : {};
  const stats = isRecord(metadata.tensor_stats) ? metadata.tensor_stats : {};
  return {
    path: typeof payload.checkpoint_path === "string" ? payload.checkpoint_path : null,
    metadata,
    nanCount: typeof stats.nan_count === "number" ? stats.nan_count : 0,
    infCount: typeof stats.inf_count === "number" ? stats.inf_count : 0,
  };
}
