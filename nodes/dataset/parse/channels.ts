import type { ChannelStats } from "../model.js";
import { canonicalSplit, isSplitName } from "../splits.js";
import { isRecord, type JsonRecord, toFinite, toNumber } from "../../../artifacts/json-values.js";

function numberList(v: unknown): number[] | null {
  if (!Array.isArray(v)) {
    const n = toNumber(v);
    return n === null ? null : [n];
  }
  const out = v.map(toNumber);
  return out.every((n): n is number => n !== null) && out.length > 0 ? out : null;
}

/** `channel_stats: {split: {mean: [...], std: [...]}}` (current shape). */
export function readChannelStats(value: unknown, path: string): Record<string, ChannelStats> {
  if (!isRecord(value)) return {};
  const out: Record<string, ChannelStats> = {};
  for (const [split, s] of Object.entries(value)) {
    if (!isRecord(s)) continue;
    const mean = numberList(s.mean);
    const std = numberList(s.std);
    if (mean && std) out[canonicalSplit(split)] = { mean, std, path: `${path}.${split}` };
  }
  return out;
}

const LEGACY_KEY = /^(?:num_)?([a-z]+)_(mean|std|samples)$/;

/** Whether statistics are the original client's flat image statistics (`num_train_samples`, `train_mean`, …). */
export function isLegacyImageStatistics(stats: JsonRecord): boolean {
  return "train_mean" in stats || "num_train_samples" in stats;
}

export interface LegacyImageRead {
  splitRows: Record<string, number>;
  channels: Record<string, ChannelStats>;
}

/** Legacy `{num_<split>_samples, <split>_mean: [per channel], <split>_std: [...]}` for any split name. */
export function readLegacyImageStatistics(stats: JsonRecord, path: string): LegacyImageRead {
  const splitRows: Record<string, number> = {};
  const parts: Record<string, { mean?: number[]; std?: number[] }> = {};
  for (const [key, v] of Object.entries(stats)) {
    const m = LEGACY_KEY.exec(key);
    if (!m?.[1] || !m[2] || !isSplitName(m[1])) continue;
    const split = canonicalSplit(m[1]);
    if (m[2] === "samples") {
      const n = toFinite(v);
      if (n !== null) splitRows[split] = n;
      continue;
    }
    const list = numberList(v);
    if (list) (parts[split] ??= {})[m[2] as "mean" | "std"] = list;
  }
  const channels: Record<string, ChannelStats> = {};
  for (const [split, p] of Object.entries(parts)) {
    if (p.mean && p.std) channels[split] = { mean: p.mean, std: p.std, path: `${path}.${split}_mean` };
  }
  return { splitRows, channels };
}
