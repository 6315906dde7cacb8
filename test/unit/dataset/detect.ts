import type { Finding } from "../../../domain/result.js";
import type { DatasetDetector } from "../../../nodes/dataset/detector.js";
import { parseDatasetArtifact } from "../../../nodes/dataset/parse.js";

/** Runs one detector on statistics given in an artifact shape (metadata + statistics), as the analyzer reads them. */
export function detectOn(detector: DatasetDetector, statistics: Record<string, unknown>, metadata: Record<string, unknown> = {}): Finding[] {
  return detector.detect(parseDatasetArtifact({ metadata, statistics }));
}

/** The one finding a detector made (each detector makes at most one). */
export function only(findings: Finding[]): Finding {
  if (findings.length !== 1) throw new Error(`expected exactly one finding, got ${findings.length}`);
  return findings[0]!;
}
