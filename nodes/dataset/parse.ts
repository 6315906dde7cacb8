/** Dataset statistics normalized from the shapes of ARTIFACTS.md. */
export interface DatasetStats {
  metadata: Record<string, unknown>;
  /** split → label → count */
  classCounts: Record<string, Record<string, number>>;
  /** column → missing fraction */
  missing: Record<string, number>;
  numRows: number | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

export function parseDatasetArtifact(payload: Record<string, unknown>): DatasetStats {
  const stats = isRecord(payload.statistics) ? payload.statistics : {};
  const metadata = isRecord(payload.metadata) ? payload.metadata : {};
  const classCounts: Record<string, Record<string, number>> = {};
  const dist = stats.class_distribution;
  if (isRecord(dist)) {
    const nested = Object.values(dist).every(isRecord);
    for (const [k, v] of Object.entries(nested ? dist : { train: dist })) {
      if (isRecord(v)) classCounts[k] = Object.fromEntries(Object.entries(v).filter(([, n]) => typeof n === "number")) as Record<string, number>;
    }
  }
  const missing: Record<string, number> = {};
  if (isRecord(stats.columns)) {
    for (const [name, col] of Object.entries(stats.columns)) {
      if (!isRecord(col)) continue;
      const frac = typeof col.missing_fraction === "number" ? col.missing_fraction
        : typeof col.missing === "number" && typeof col.count === "number" ? col.missing / (col.count + col.missing) : null;
      if (frac !== null) missing[name] = frac;
    }
  }
  const numRows = typeof stats.num_rows === "number" ? stats.num_rows : null;
  return { metadata, classCounts, missing, numRows };
}
