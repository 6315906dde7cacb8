import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildCheckpointInfo } from "../../../nodes/checkpoint/build-info.js";
import { detectCheckpointFindings } from "../../../nodes/checkpoint/detect.js";
import { scanCheckpointFile } from "../../../nodes/checkpoint/file/scan.js";
import type { CheckpointInfo } from "../../../nodes/checkpoint/table.js";
import type { Finding } from "../../../domain/result.js";

/** Absolute path of a committed checkpoint fixture (see scripts/fixtures/checkpoint/). */
export const fixture = (relative: string) => fileURLToPath(new URL(`../../fixtures/checkpoint/${relative}`, import.meta.url));

/** Reference statistics the fixture generators computed with numpy / torch. */
export function expectedStats(folder: "safetensors" | "torch"): Record<string, Record<string, Record<string, number | string | number[]>>> {
  return JSON.parse(readFileSync(fixture(`${folder}/expected-stats.json`), "utf8"));
}

/** Scans a fixture and normalizes it with the given request metadata, as the analyzer does. */
export async function infoOf(relative: string, metadata: Record<string, unknown> = {}, maxScanBytes: number | null = null): Promise<CheckpointInfo> {
  const path = fixture(relative);
  const scan = await scanCheckpointFile(path, maxScanBytes === null ? {} : { maxBytes: maxScanBytes });
  return buildCheckpointInfo(path, metadata, { scan, note: null, maxScanBytes });
}

/** Metadata only, as when no file was sent. */
export const metadataInfo = (metadata: Record<string, unknown>): CheckpointInfo => buildCheckpointInfo(null, metadata, { scan: null, note: null, maxScanBytes: null });

export const findingsOf = (info: CheckpointInfo): Finding[] => detectCheckpointFindings(info);
export const ids = (findings: readonly Finding[]) => findings.map((f) => f.id).sort();
export const byId = (findings: readonly Finding[], id: string) => findings.filter((f) => f.id === id);

const ABOVE_LOW = new Set(["critical", "high", "medium"]);
/** Findings above `low`, which a benign file must not produce. */
export const aboveLow = (findings: readonly Finding[]) => findings.filter((f) => ABOVE_LOW.has(f.severity));
