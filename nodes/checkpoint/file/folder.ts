import { open, readFile } from "node:fs/promises";
import { basename } from "node:path";
import { isRecord } from "../../../artifacts/json-values.js";
import type { FolderFile } from "../paths.js";
import { isFloatDType, tensorBytes } from "./dtypes.js";
import { readBytes } from "./range-reader.js";
import { type ScanOptions, scanCheckpointFile } from "./scan.js";
import type { CheckpointFormat, CheckpointScan, FolderSummary, IntegrityIssue } from "./scan-types.js";
import { SNIFF_BYTES, sniffFormat } from "./sniff.js";

/** JSON files read beside the weights are small; anything larger is not a config. */
const MAX_JSON_BYTES = 16 << 20;
const SHARD_INDEX = /\.index\.json$/;

async function readJson(path: string, size: number): Promise<Record<string, unknown> | null> {
  if (size > MAX_JSON_BYTES) return null;
  try {
    const parsed: unknown = JSON.parse(await readFile(path, "utf8"));
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

async function sniffFile(file: FolderFile): Promise<CheckpointFormat> {
  const fh = await open(file.path, "r");
  try {
    return sniffFormat(await readBytes(fh, 0, Math.min(file.size, SNIFF_BYTES)), file.size, basename(file.relative));
  } finally {
    await fh.close();
  }
}

/**
 * Which of several full copies of the weights stands for the folder: Lightning's `last.ckpt`, else the highest
 * step or epoch in the name (`epoch=3-step=120.ckpt`), else the first by name. Lower sorts first.
 */
function copyRank(relative: string): [number, number, string] {
  const name = basename(relative);
  const step = /(?:step|checkpoint)[=_-](\d+)/.exec(name)?.[1] ?? /epoch[=_-](\d+)/.exec(name)?.[1];
  return [/^last(-v\d+)?\./.test(name) ? 0 : 1, step === undefined ? 0 : -Number(step), relative];
}

const byRank = (a: FolderFile, b: FolderFile) => {
  const [x, y] = [copyRank(a.relative), copyRank(b.relative)];
  return x[0] - y[0] || x[1] - y[1] || x[2].localeCompare(y[2]);
};

/** The most common float dtype among the weights (what `torch_dtype` in config.json should say). */
function weightsDType(scan: CheckpointScan): string | null {
  const counts = new Map<string, number>();
  for (const t of scan.tensors) if (t.group === "model" && t.dtype && isFloatDType(t.dtype)) counts.set(t.dtype, (counts.get(t.dtype) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

const within = (relative: string, entry: string) => (entry === basename(relative) ? relative : `${relative}:${entry}`);

/**
 * Scans a checkpoint folder (`save_pretrained` output, a Trainer `checkpoint-N/`, a Lightning `checkpoints/`
 * folder, sharded safetensors with their index) as one checkpoint: every file whose content is a format the
 * scanner knows is scanned for safety, under any name; weight shards are merged into one tensor table; several
 * full copies of the weights (epoch and last checkpoints, or .bin beside .safetensors) give one table, from the
 * copy `copyRank` prefers; optimizer, scheduler and RNG files add their tensors under their file name; config.json
 * and trainer_state.json become metadata. `files` come from resolveCheckpointPath (inside the roots, bounded).
 * The byte budget (`maxBytes`) is shared: files past it are read header-only.
 */
export async function scanCheckpointFolder(folder: string, files: readonly FolderFile[], options: ScanOptions = {}): Promise<CheckpointScan> {
  const summary: FolderSummary = { files: [], metadata: { checkpoint_name: basename(folder) } };
  const merged: CheckpointScan = {
    path: folder, format: "unknown", fileSize: 0, headerOnly: false, tensors: [], pickles: [], unverified: [], issues: [],
    fileMetadata: {}, loadCode: [], topLevelKeys: [], lightning: null, trainingState: null, bytesScanned: 0, folder: summary,
  };
  const scans: Array<{ file: FolderFile; scan: CheckpointScan }> = [];
  let index: { file: FolderFile; json: Record<string, unknown> } | null = null;
  let budget = options.maxBytes;
  for (const file of files) {
    options.signal?.throwIfAborted();
    const name = basename(file.relative);
    const format = await sniffFile(file);
    if (format === "unknown" && name.endsWith(".json")) {
      const json = await readJson(file.path, file.size);
      if (json && name === "config.json") summary.metadata.config = json;
      if (json && name === "trainer_state.json") Object.assign(summary.metadata, trainerFacts(json));
      if (json && SHARD_INDEX.test(name)) index = { file, json };
      summary.files.push({ relative: file.relative, size: file.size, format: null, role: name === "config.json" ? "config" : name === "trainer_state.json" ? "trainer_state" : SHARD_INDEX.test(name) ? "index" : "other" });
      continue;
    }
    if (format === "unknown") {
      summary.files.push({ relative: file.relative, size: file.size, format: null, role: "other" });
      continue;
    }
    const scan = await scanCheckpointFile(file.path, { ...options, maxBytes: budget });
    if (budget !== undefined) budget = Math.max(0, budget - file.size);
    scans.push({ file, scan });
  }
  // Weights first, preferred copy first; a file whose tensor names are already in the table is another copy.
  const weights = scans.filter((s) => s.scan.trainingState === null && s.scan.tensors.length > 0).sort((a, b) => byRank(a.file, b.file));
  const seen = new Set<string>();
  let primary: CheckpointScan | null = null;
  for (const { file, scan } of weights) {
    const isCopy = scan.tensors.some((t) => t.group === "model" && seen.has(t.name));
    summary.files.push({ relative: file.relative, size: file.size, format: scan.format, role: isCopy ? "copy" : "weights" });
    if (isCopy) continue;
    primary ??= scan;
    for (const t of scan.tensors) {
      if (t.group === "model") seen.add(t.name);
      merged.tensors.push(t.group === "model" ? t : { ...t, name: `${file.relative}:${t.name}` });
    }
  }
  for (const { file, scan } of scans) {
    if (!weights.some((w) => w.scan === scan)) {
      summary.files.push({ relative: file.relative, size: file.size, format: scan.format, role: scan.trainingState ?? "other" });
      merged.tensors.push(...scan.tensors.map((t) => ({ ...t, group: t.group === "model" ? ("other" as const) : t.group, name: `${file.relative}:${t.name}` })));
    }
    merged.fileSize += scan.fileSize;
    merged.bytesScanned += scan.bytesScanned;
    merged.headerOnly ||= scan.headerOnly;
    merged.pickles.push(...scan.pickles.map((p) => ({ ...p, entry: within(file.relative, p.entry) })));
    merged.unverified.push(...scan.unverified.map((u) => ({ ...u, entry: within(file.relative, u.entry) })));
    merged.issues.push(...scan.issues.map((i) => ({ ...i, detail: `${file.relative}: ${i.detail}` })));
    merged.loadCode.push(...scan.loadCode.map((c) => ({ ...c, where: within(file.relative, c.where) })));
  }
  if (primary) {
    merged.format = primary.format;
    merged.fileMetadata = primary.fileMetadata;
    merged.topLevelKeys = primary.topLevelKeys;
    merged.lightning = primary.lightning;
    const dtype = weightsDType(merged);
    if (dtype) summary.metadata.dtype = dtype;
  } else if (scans.length === 1) {
    // A folder holding one training-state file is that file.
    merged.format = scans[0]!.scan.format;
    merged.trainingState = scans[0]!.scan.trainingState;
    merged.fileMetadata = scans[0]!.scan.fileMetadata;
  }
  if (index) merged.issues.push(...checkShardIndex(index.file.relative, index.json, files, merged));
  return merged;
}

/** What trainer_state.json says about where training was: the step and epoch of this checkpoint, the best metric. */
function trainerFacts(state: Record<string, unknown>): Record<string, unknown> {
  const pick = (k: string) => (typeof state[k] === "number" ? { [k]: state[k] } : {});
  return { ...pick("global_step"), ...pick("epoch"), ...(typeof state.best_metric === "number" ? { best_model_score: state.best_metric } : {}) };
}

/**
 * The shard index (`model.safetensors.index.json`, `pytorch_model.bin.index.json`) against the folder: every
 * shard it names must be there and hold the tensors it maps; its `metadata.total_size` must match their bytes.
 */
function checkShardIndex(relative: string, json: Record<string, unknown>, files: readonly FolderFile[], merged: CheckpointScan): IntegrityIssue[] {
  const map = isRecord(json.weight_map) ? json.weight_map : null;
  if (!map) return [{ kind: "bad_header", detail: `${relative} has no weight_map` }];
  const dir = relative.includes("/") ? relative.slice(0, relative.lastIndexOf("/") + 1) : "";
  const present = new Set(files.map((f) => f.relative));
  const shards = [...new Set(Object.values(map).filter((v): v is string => typeof v === "string"))];
  const missingShards = shards.filter((s) => !present.has(`${dir}${s}`));
  const names = new Set(merged.tensors.filter((t) => t.group === "model").map((t) => t.name));
  const missingTensors = Object.entries(map).filter(([name, shard]) => !names.has(name) && !missingShards.includes(String(shard))).map(([name]) => name);
  const issues: IntegrityIssue[] = missingShards.map((s) => ({ kind: "missing_storage" as const, detail: `shard ${s} named by ${relative} is not in the folder: the model cannot be loaded` }));
  if (missingTensors.length > 0) {
    issues.push({ kind: "missing_storage", detail: `${missingTensors.length} tensors mapped by ${relative} are in none of its shards (${missingTensors.slice(0, 3).join(", ")})` });
  }
  const declared = isRecord(json.metadata) && typeof json.metadata.total_size === "number" ? json.metadata.total_size : null;
  const actual = merged.tensors.filter((t) => t.group === "model" && t.dtype).reduce((n, t) => n + tensorBytes(t.dtype!, t.numel), 0);
  // Within 1 %: writers differ on whether shared (tied) storages count once.
  if (declared !== null && missingShards.length === 0 && Math.abs(declared - actual) > 0.01 * declared) {
    issues.push({ kind: "size_mismatch", detail: `${relative} declares total_size ${declared} bytes but its shards' tensors hold ${actual}`, expectedBytes: declared, actualBytes: actual });
  }
  return issues;
}
