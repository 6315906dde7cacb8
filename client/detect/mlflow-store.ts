import { readFile } from "node:fs/promises";
import { dirname, sep } from "node:path";
import type { FoundFile } from "./walk.js";

/** A run of an MLflow local file store (`mlruns/<experiment>/<run>/`): what its folder says, file by file. */
export interface FileStoreRun {
  /** The run folder, relative to the path given. */
  folder: string;
  runId: string;
  runName: string | null;
  experimentId: string | null;
  startTime: number | null;
  /** Long rows, as MLflow's metric history: one per line of `metrics/<key>`. */
  metrics: Array<{ key: string; value: number; step: number; timestamp: number }>;
  params: Record<string, string>;
  tags: Record<string, string>;
  /** Files read into the fields above (the others, under `artifacts/`, are classified like any file). */
  consumed: Set<string>;
}

const FIELD = (name: string) => new RegExp(`^${name}:\\s*'?([^'\\n]*)'?\\s*$`, "m");
/** MLflow writes Python's float repr: `nan`, `inf`, `-inf` for non-finite values. */
const PY_FLOAT: Record<string, number> = { nan: Number.NaN, inf: Number.POSITIVE_INFINITY, "-inf": Number.NEGATIVE_INFINITY };

const readValue = (text: string) => PY_FLOAT[text.toLowerCase()] ?? Number(text);

/** `meta.yaml` of a live run (it names `run_id`, or `run_uuid` before MLflow 2), not of an experiment or a deleted run. */
export function isRunMeta(file: FoundFile, text: string): boolean {
  const isRun = FIELD("run_id").test(text) || FIELD("run_uuid").test(text);
  return file.relative.split(sep).pop() === "meta.yaml" && isRun && !/^lifecycle_stage:\s*deleted\s*$/m.test(text);
}

/**
 * Reads a file-store run from its `meta.yaml` and the files beside it: `metrics/<key>` (lines of
 * `timestamp value step`; keys with `/` are subfolders), `params/<key>` and `tags/<key>` (the file is the value).
 */
export async function readFileStoreRun(meta: FoundFile, metaText: string, files: readonly FoundFile[]): Promise<FileStoreRun> {
  const folder = dirname(meta.relative);
  const field = (name: string) => FIELD(name).exec(metaText)?.[1]?.trim() || null;
  const run: FileStoreRun = {
    folder,
    runId: field("run_id") ?? field("run_uuid") ?? folder,
    runName: field("run_name"),
    experimentId: field("experiment_id"),
    startTime: field("start_time") === null ? null : Number(field("start_time")),
    metrics: [],
    params: {},
    tags: {},
    consumed: new Set([meta.path]),
  };
  const prefix = folder === "." ? "" : `${folder}${sep}`;
  for (const file of files) {
    if (!file.relative.startsWith(prefix)) continue;
    const [area, ...rest] = file.relative.slice(prefix.length).split(sep);
    if (rest.length === 0 || (area !== "metrics" && area !== "params" && area !== "tags")) continue;
    const key = rest.join("/");
    const text = await readFile(file.path, "utf8");
    run.consumed.add(file.path);
    if (area === "params") run.params[key] = text;
    else if (area === "tags") run.tags[key] = text;
    else {
      for (const line of text.split("\n")) {
        const [timestamp, value, step] = line.trim().split(/\s+/);
        if (value === undefined) continue;
        run.metrics.push({ key, value: readValue(value), step: Number(step ?? 0), timestamp: Number(timestamp) });
      }
    }
  }
  run.runName ??= run.tags["mlflow.runName"] ?? null;
  return run;
}
