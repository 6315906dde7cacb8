import { open, readFile } from "node:fs/promises";
import { basename, dirname, sep } from "node:path";
import { load as loadYaml } from "js-yaml";
import { isRecord } from "../../artifacts/json-values.js";
import { parseTolerantJson } from "../../artifacts/tolerant-json.js";
import { isWandbLog, LevelDbLogReader } from "../../nodes/training/parse/leveldb-log.js";
import { decodeWandbRecord, type WandbItem, type WandbRecord } from "../../nodes/training/parse/wandb-records.js";
import type { FoundFile } from "./walk.js";
import { WandbHistory } from "./wandb-history.js";

/** Bytes read per step of the scan: memory stays at this plus one record, whatever the history's length. */
const CHUNK = 1 << 20;

/** A W&B run folder (`wandb/run-*`, `wandb/offline-run-*`) as the client sends it. */
export interface WandbRun {
  folder: string;
  log: FoundFile;
  runId: string;
  name: string | null;
  project: string | null;
  /** Seconds since the epoch, from the run record; null when the log has none yet. */
  startTime: number | null;
  /** The numeric history, by column. */
  history: WandbHistory;
  params: Record<string, unknown>;
  summary: Record<string, unknown>;
  /** The exit code once the run ended; null for a run still writing (or killed before its exit record). */
  exitCode: number | null;
  /** The run folder's files read into the fields above, with what each gave. */
  used: Array<{ file: FoundFile; label: string }>;
  /** Files of the run folder that W&B writes for itself, not read, with why. */
  skipped: Array<{ file: FoundFile; reason: string }>;
  /** True when the log ends in a record the writer has not finished (a live run). */
  unfinished: boolean;
}

/** Files W&B writes into every run folder for its own use: environment, console, debug logs. */
const BOOKKEEPING = /^(files\/(wandb-metadata\.json|requirements\.txt|output\.log|conda-environment\.yaml|diff\.patch)|logs\/.*)$/;

/** Whether a file is a W&B transaction log, by its first bytes. */
export async function isWandbLogFile(file: FoundFile): Promise<boolean> {
  if (file.size < 7) return false;
  const fh = await open(file.path, "r").catch(() => null);
  if (!fh) return false;
  try {
    const head = Buffer.alloc(7);
    await fh.read(head, 0, 7, 0);
    return isWandbLog(head);
  } finally {
    await fh.close();
  }
}

/**
 * Reads a transaction log from start to end in CHUNK-sized pieces, handing each decoded record to `visit`. Returns
 * whether the log ends mid-record (a run still writing).
 */
export async function scanWandbLog(path: string, visit: (record: WandbRecord) => void): Promise<boolean> {
  const reader = new LevelDbLogReader();
  const fh = await open(path, "r");
  try {
    const buf = Buffer.alloc(CHUNK);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, CHUNK, null);
      if (bytesRead === 0) break;
      for (const bytes of reader.feed(buf.subarray(0, bytesRead))) {
        const record = decodeWandbRecord(bytes);
        if (record) visit(record);
      }
    }
  } finally {
    await fh.close();
  }
  return reader.unfinished;
}

/** Folds W&B records into a run: history rows as long rows, config and summary updates, the run record, the exit. */
export class WandbRunBuilder {
  readonly history = new WandbHistory();
  readonly params: Record<string, unknown> = {};
  readonly summary: Record<string, unknown> = {};
  runId = "";
  name: string | null = null;
  project: string | null = null;
  startTime: number | null = null;
  exitCode: number | null = null;

  add(record: WandbRecord): void {
    switch (record.kind) {
      case "history":
        this.history.add(record.row);
        break;
      case "run":
        this.runId = record.runId;
        this.name = record.name || null;
        this.project = record.project || null;
        this.startTime = record.startTime;
        mergeItems(this.params, record.config);
        break;
      case "config":
        mergeItems(this.params, record.items);
        break;
      case "summary":
        mergeItems(this.summary, record.items);
        break;
      case "exit":
        this.exitCode = record.exitCode;
        break;
    }
  }
}

/** Items into a record, values parsed from their JSON; W&B's own keys (`_wandb`, `_step`, `_runtime`…) left out. */
function mergeItems(into: Record<string, unknown>, items: readonly WandbItem[]): void {
  for (const [key, json] of items) {
    if (key.startsWith("_")) continue;
    into[key] = parseTolerantJson(json) ?? json;
  }
}

/**
 * Reads one W&B run folder, given its transaction log and the files found under the folder: history from the log,
 * config from the log's run and config records (or `files/config.yaml`, W&B's `{key: {value, desc}}` shape, which
 * a synced run has and which wins), the summary from `files/wandb-summary.json` or else the log's summary records.
 */
export async function readWandbRun(log: FoundFile, files: readonly FoundFile[]): Promise<WandbRun> {
  const builder = new WandbRunBuilder();
  const unfinished = await scanWandbLog(log.path, (r) => builder.add(r));
  const folder = dirname(log.relative);
  const prefix = folder === "." ? "" : `${folder}${sep}`;
  const run: WandbRun = {
    folder,
    log,
    runId: builder.runId || runIdFromName(log.path),
    name: builder.name,
    project: builder.project,
    startTime: builder.startTime,
    history: builder.history,
    params: builder.params,
    summary: builder.summary,
    exitCode: builder.exitCode,
    used: [{ file: log, label: `W&B history (${builder.history.rows} rows, ${builder.history.keys.length} keys)` }],
    skipped: [],
    unfinished,
  };
  for (const file of files) {
    if (!file.relative.startsWith(prefix) || file === log) continue;
    const inRun = file.relative.slice(prefix.length).split(sep).join("/");
    if (inRun === "files/config.yaml") {
      const config = await readConfigYaml(file.path);
      if (config) {
        Object.assign(run.params, config);
        run.used.push({ file, label: `W&B config (${Object.keys(config).length} keys)` });
      } else run.skipped.push({ file, reason: "not the {key: {value}} config W&B writes" });
    } else if (inRun === "files/wandb-summary.json") {
      const summary = parseTolerantJson(await readFile(file.path, "utf8"));
      if (isRecord(summary)) {
        for (const [k, v] of Object.entries(summary)) if (!k.startsWith("_")) run.summary[k] = v;
        run.used.push({ file, label: "W&B summary" });
      } else run.skipped.push({ file, reason: "not a JSON object" });
    } else if (BOOKKEEPING.test(inRun)) {
      run.skipped.push({ file, reason: "W&B's own bookkeeping (environment, console or debug log), not the run's metrics" });
    } else if (inRun.startsWith("files/media/") || inRun.startsWith("tmp/")) {
      run.skipped.push({ file, reason: "W&B media or temporary file: not read" });
    }
  }
  return run;
}

/** config.yaml's `{key: {value: …, desc: …}}` as `{key: value}`, W&B's own `_wandb` and `wandb_version` left out. */
async function readConfigYaml(path: string): Promise<Record<string, unknown> | null> {
  const doc = loadYaml(await readFile(path, "utf8"));
  if (!isRecord(doc)) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc)) {
    if (k.startsWith("_") || k === "wandb_version") continue;
    out[k] = isRecord(v) && "value" in v ? v.value : v;
  }
  return out;
}

/** `run-<id>.wandb` → id: the log's own name when it has no run record yet. */
function runIdFromName(path: string): string {
  return basename(path).replace(/^run-/, "").replace(/\.wandb$/, "");
}

/** The folder's start time from its name (`run-20261206_040346-<id>`), for ordering runs without reading them. */
export function folderTime(folder: string): string {
  return /(\d{8}_\d{6})-[^/\\]+$/.exec(folder)?.[1] ?? "";
}
