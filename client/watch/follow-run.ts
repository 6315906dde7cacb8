import { readFile, stat } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";
import { csvFormat } from "../../artifacts/mlflow/build/training.js";
import { parseTolerantJson } from "../../artifacts/tolerant-json.js";
import { isRecord } from "../../artifacts/json-values.js";
import { readTrainingArguments } from "../../nodes/checkpoint/file/training-args.js";
import { load as loadYaml } from "js-yaml";
import { type FoundFile, listRunFiles } from "../detect/walk.js";
import { isSqliteFile, readMlflowSqlite } from "../detect/mlflow-sqlite.js";
import { folderTime, isWandbLogFile } from "../detect/wandb-run.js";
import { LineFollower } from "./append-reader.js";
import { SqliteStoreFollower, type StoreFollower, WandbLogFollower } from "./store-followers.js";
import { findTextSource, readHead } from "./text-source.js";
import { TfRecordFollower } from "./tfrecord-follower.js";

/** A metrics source being followed, with what it has read so far. */
type Source =
  | { kind: "csv"; label: string; format: "lightning_csv" | "keras_csv" | "csv"; file: LineFollower }
  /** JSON lines sent as the jsonl format; a printed log sent as logs, whose metric series the service reads. */
  | { kind: "jsonl" | "log"; label: string; file: LineFollower }
  | { kind: "tfevents"; label: string; root: string; files: Map<string, TfRecordFollower> }
  | { kind: "trainer_state"; label: string; path: string; seen: string; state: Record<string, unknown> | null }
  | { kind: "mlflow"; label: string; runDir: string; meta: string; files: Map<string, LineFollower>; status: string | null }
  | { kind: "store"; label: string; follower: StoreFollower };

/** One poll: how many points (rows, records, log entries) arrived, and whether the run said it ended. */
export interface Poll {
  added: number;
  ended: boolean;
}

const EVENT_FILE = /^events\.out\.tfevents\./;
/** Keras' TensorBoard callback writes one subfolder per split. */
const SPLIT_DIRS = new Set(["train", "validation", "eval", "val", "test"]);
/** MLflow RunStatus: 3 FINISHED, 4 FAILED, 5 KILLED (meta.yaml stores the number). */
const MLFLOW_ENDED = /^status:\s*(3|4|5)\s*$/m;
/** What the Trainer example scripts write after `trainer.train()` returns. */
const HF_END_FILES = new Set(["train_results.json", "all_results.json"]);

/**
 * Follows one run folder while it trains: finds its metrics file once one appears (the first found of a
 * Lightning or Keras CSV log, TensorBoard event files, an MLflow file-store run, the newest trainer_state.json,
 * JSON lines, a printed training log),
 * reads only what each poll appended, and builds the `training_artifacts` the service analyses.
 */
export class RunFollower {
  private source: Source | null = null;
  private params: Record<string, unknown> = {};
  private paramFiles = new Set<string>();
  ended = false;

  constructor(readonly root: string) {}

  get label(): string | null {
    return this.source?.label ?? null;
  }

  async poll(): Promise<Poll> {
    const files = await listRunFiles(this.root).catch(() => [] as FoundFile[]);
    await this.readParams(files);
    this.source ??= await chooseSource(this.root, files);
    const s = this.source;
    if (!s) return { added: 0, ended: false };
    // The Trainer's end marker ends the watch whichever of its logs (event files or trainer_state.json) is followed.
    this.ended ||= files.some((f) => HF_END_FILES.has(basename(f.path)));
    let added = 0;
    switch (s.kind) {
      case "csv":
      case "jsonl":
      case "log": {
        const r = await s.file.poll();
        added = r.added;
        break;
      }
      case "tfevents":
        for (const f of files) {
          if (EVENT_FILE.test(basename(f.path)) && runDirOf(relative(this.root, f.path)) === s.root && !s.files.has(f.path)) s.files.set(f.path, new TfRecordFollower(f.path));
        }
        for (const f of s.files.values()) added += await f.poll();
        break;
      case "trainer_state": {
        // Rewritten whole at every save: read again only when its size or time changed, and keep the last
        // complete one while a save is half-written.
        const newest = files.filter((f) => basename(f.path) === "trainer_state.json").map((f) => f.path);
        const latest = await newestByTime(newest);
        if (latest) s.path = latest;
        const info = await stat(s.path).catch(() => null);
        const seen = info ? `${info.size}:${info.mtimeMs}` : "";
        if (info && seen !== s.seen) {
          const state = await readFile(s.path, "utf8").then(parseTolerantJson, () => null).catch(() => null);
          if (isRecord(state) && Array.isArray(state.log_history)) {
            const before = Array.isArray(s.state?.log_history) ? s.state.log_history.length : 0;
            added = Math.max(0, state.log_history.length - before);
            s.state = state;
            s.seen = seen;
          }
        }
        break;
      }
      case "mlflow":
        for (const f of files) {
          const rel = relative(s.runDir, f.path);
          if (rel.startsWith(`metrics${sep}`) && !s.files.has(f.path)) s.files.set(f.path, new LineFollower(f.path));
        }
        for (const f of s.files.values()) added += (await f.poll()).added;
        s.status = await readFile(s.meta, "utf8").catch(() => s.status);
        this.ended ||= MLFLOW_ENDED.test(s.status ?? "");
        break;
      case "store": {
        const r = await s.follower.poll();
        added = r.added;
        this.ended ||= r.ended;
        break;
      }
    }
    return { added, ended: this.ended };
  }

  /** `training_artifacts` for what was read so far; null before any metric arrived. */
  artifact(running: boolean): Record<string, unknown> | null {
    const metrics = this.metrics();
    if (metrics === null) return null;
    const status = { status: running ? "running" : "finished" };
    const out: Record<string, unknown> = this.source?.kind === "log" ? { logs: metrics, metadata: status } : { metrics, metadata: status };
    const params = this.source?.kind === "store" ? { ...this.params, ...this.source.follower.params() } : this.params;
    if (Object.keys(params).length > 0) out.params = params;
    return out;
  }

  private metrics(): unknown {
    const s = this.source;
    if (!s) return null;
    switch (s.kind) {
      case "csv":
        return s.file.lines.length < 2 ? null : { format: s.format, content: `${s.file.lines.join("\n")}\n` };
      case "jsonl":
        return s.file.lines.length === 0 ? null : { format: "jsonl", content: `${s.file.lines.join("\n")}\n` };
      case "log":
        return s.file.lines.length === 0 ? null : [...s.file.lines];
      case "tfevents": {
        const files = [...s.files.entries()].filter(([, f]) => f.count > 0);
        if (files.length === 0) return null;
        if (files.length === 1) return { format: "tfevents", content_base64: files[0]![1].content().toString("base64") };
        return { format: "tfevents", files: files.map(([path, f]) => ({ path: relative(join(this.root, s.root), path), content_base64: f.content().toString("base64") })) };
      }
      case "trainer_state":
        return s.state ? { format: "hf_trainer_state", content: s.state } : null;
      case "mlflow": {
        const rows = [...s.files.entries()].flatMap(([path, f]) => {
          const key = relative(join(s.runDir, "metrics"), path).split(sep).join("/");
          return f.lines.flatMap((line) => {
            const [timestamp, value, step] = line.trim().split(/\s+/);
            return value === undefined ? [] : [{ key, value: PY_FLOAT[value.toLowerCase()] ?? Number(value), step: Number(step ?? 0), timestamp: Number(timestamp) }];
          });
        });
        return rows.length === 0 ? null : rows;
      }
      case "store":
        return s.follower.metrics();
    }
  }

  /** Hyper-parameters, read when their file appears (hparams.yaml, training_args.bin and config.json, MLflow params/). */
  private async readParams(files: readonly FoundFile[]): Promise<void> {
    for (const f of files) {
      const name = basename(f.path);
      const isParam = name === "hparams.yaml" || name === "training_args.bin" || name === "config.json" || relative(this.root, f.path).split(sep).includes("params");
      if (!isParam || this.paramFiles.has(f.path)) continue;
      this.paramFiles.add(f.path);
      try {
        if (name === "hparams.yaml") Object.assign(this.params, (loadYaml(await readFile(f.path, "utf8")) as Record<string, unknown> | null) ?? {});
        else if (name === "training_args.bin") Object.assign(this.params, await readTrainingArguments(f.path));
        else if (name === "config.json") {
          const config = JSON.parse(await readFile(f.path, "utf8")) as unknown;
          if (isRecord(config)) this.params = { ...config, ...this.params };
        } else if (basename(dirname(f.path)) === "params") this.params[name] = await readFile(f.path, "utf8");
      } catch {
        // A parameter file caught half-written is tried again at the next poll.
        this.paramFiles.delete(f.path);
      }
    }
  }
}

/** MLflow writes Python's float repr for non-finite values. */
const PY_FLOAT: Record<string, number> = { nan: Number.NaN, inf: Number.POSITIVE_INFINITY, "-inf": Number.NEGATIVE_INFINITY };

/** The run folder of an event file: its folder, or the parent of a `train/`/`validation/` split folder. */
function runDirOf(rel: string): string {
  const dir = dirname(rel);
  return SPLIT_DIRS.has(basename(dir)) ? dirname(dir) : dir;
}

async function newestByTime(paths: readonly string[]): Promise<string | null> {
  let best: { path: string; t: number } | null = null;
  for (const path of paths) {
    const t = (await stat(path).catch(() => null))?.mtimeMs;
    if (t !== undefined && (!best || t > best.t)) best = { path, t };
  }
  return best?.path ?? null;
}

/**
 * The metrics source of the folder, once one exists: a CSV log first (appended row by row), then event files,
 * an MLflow file-store run, a W&B run's log or an MLflow SQLite store, and trainer_state.json last, since the Trainer rewrites it only at each checkpoint save while
 * its TensorBoard logs grow at every logging step.
 */
async function chooseSource(root: string, files: readonly FoundFile[]): Promise<Source | null> {
  const rels = files.map((f) => relative(root, f.path).split(sep).join("/"));
  for (const f of files) {
    const name = basename(f.path);
    if (!/\.(csv|log)$/i.test(name) || f.size === 0) continue;
    const head = await readHead(f.path, 512);
    const rel = relative(root, f.path).split(sep).join("/");
    if (name.endsWith(".log") && !/^epoch[,;\t]/.test(head)) continue;
    if (!head.includes("\n")) continue;
    const format = name.endsWith(".log") ? "keras_csv" : csvFormat(rel, head, rels);
    return { kind: "csv", label: `${rel} (${format})`, format, file: new LineFollower(f.path) };
  }
  const events = files.filter((f) => EVENT_FILE.test(basename(f.path)));
  if (events.length > 0) {
    const runRoot = runDirOf(relative(root, events[0]!.path));
    return { kind: "tfevents", label: `TensorBoard event files in ${runRoot === "." ? "the folder" : `${runRoot}/`}`, root: runRoot, files: new Map() };
  }
  for (const f of files) {
    if (basename(f.path) !== "meta.yaml") continue;
    const text = await readFile(f.path, "utf8").catch(() => "");
    if (!/^run_(id|uuid):/m.test(text)) continue;
    return { kind: "mlflow", label: `MLflow run ${relative(root, dirname(f.path)) || "."}`, runDir: dirname(f.path), meta: f.path, files: new Map(), status: text };
  }
  const store = await storeSource(root, files);
  if (store) return store;
  const state = await newestByTime(files.filter((f) => basename(f.path) === "trainer_state.json").map((f) => f.path));
  if (state) return { kind: "trainer_state", label: "Hugging Face trainer_state.json (newest checkpoint)", path: state, seen: "", state: null };
  const text = await findTextSource(root, files);
  return text ? { kind: text.kind, label: text.label, file: new LineFollower(text.path) } : null;
}

/** A W&B run's transaction log (the newest run folder's), else an MLflow SQLite store, told by their first bytes. */
async function storeSource(root: string, files: readonly FoundFile[]): Promise<Source | null> {
  const logs: FoundFile[] = [];
  for (const f of files) if (await isWandbLogFile(f)) logs.push(f);
  const [log] = logs.sort((a, b) => folderTime(dirname(b.path)).localeCompare(folderTime(dirname(a.path))));
  if (log) return { kind: "store", label: `W&B run ${relative(root, dirname(log.path)) || "."}`, follower: new WandbLogFollower(log.path) };
  for (const f of files) {
    if (f.size < 512 || !(await isSqliteFile(f.path))) continue;
    if (await readMlflowSqlite(f.path, null, true).catch(() => null)) return { kind: "store", label: `MLflow SQLite store ${relative(root, f.path)} (read again whole at each change)`, follower: new SqliteStoreFollower(f.path) };
  }
  return null;
}
