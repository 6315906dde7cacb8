import type { ColumnStats } from "../model.js";

/**
 * Class counts of a 0/1 target from its column statistics (the mean is the positive rate), for artifacts that
 * describe the label column but give no class distribution.
 */
export function deriveTargetClasses(col: ColumnStats | undefined): Record<string, number> | null {
  if (!col || col.count === null || col.mean === null || !Number.isFinite(col.mean)) return null;
  const binary = col.min === 0 && col.max === 1 && (col.unique === null || col.unique === 2);
  if (!binary) return null;
  const positives = Math.round(col.count * col.mean);
  return { "0": col.count - positives, "1": positives };
}
