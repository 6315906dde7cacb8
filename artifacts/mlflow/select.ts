import { dirnameOf } from "./discover.js";
import type { SourcedFile } from "./inventory.js";

/** Documents read per run at most (reports, statistics, YAML): a run with thousands of JSON files is sampled. */
export const MAX_DOCUMENTS = 64;
const MAX_LOGS = 8;
const MAX_HPARAMS = 4;

/** The largest number in a path (version_3, checkpoint-3000, epoch=9): the latest of several wins. */
export const latest = (path: string) => Math.max(-1, ...(path.match(/\d+/g) ?? []).map(Number).filter((n) => n < 1e9));
const byLatest = (a: SourcedFile, b: SourcedFile) => latest(dirnameOf(b.file.path)) - latest(dirnameOf(a.file.path)) || a.file.path.localeCompare(b.file.path);
const depth = (f: SourcedFile) => f.file.path.split("/").length;

/**
 * The files training metrics may come from, at most one of each format: the top-level (or latest)
 * `trainer_state.json`, the latest Lightning `version_<n>/metrics.csv` (or another metrics CSV), the largest
 * event file; plus hparams and log files.
 */
export function trainingFiles(files: readonly SourcedFile[]): SourcedFile[] {
  const of = (role: SourcedFile["role"]) => files.filter((f) => f.role === role && f.model === null);
  const trainerState = of("trainer_state").sort((a, b) => depth(a) - depth(b) || byLatest(a, b))[0];
  const csv = of("metrics_csv").sort(byLatest)[0];
  const events = of("tfevents").sort((a, b) => (b.file.file_size ?? 0) - (a.file.file_size ?? 0))[0];
  const hparams = of("hparams").slice(0, MAX_HPARAMS);
  const logs = of("log").slice(0, MAX_LOGS);
  return [trainerState, csv, events, ...hparams, ...logs].filter((f): f is SourcedFile => f !== undefined);
}

/** JSON and YAML documents of the run, shallow paths first, at most MAX_DOCUMENTS. */
export function documentFiles(files: readonly SourcedFile[]): SourcedFile[] {
  return files
    .filter((f) => f.role === "document" && f.model === null)
    .sort((a, b) => depth(a) - depth(b) || a.file.path.localeCompare(b.file.path))
    .slice(0, MAX_DOCUMENTS);
}

/** The sidecars of a chosen weights file (same directory) and the MLmodel of the nearest enclosing model dir. */
export function checkpointSidecars(files: readonly SourcedFile[], chosen: SourcedFile): SourcedFile[] {
  const dir = dirnameOf(chosen.file.path);
  const same = files.filter((f) => f.source === chosen.source && f.role === "checkpoint_sidecar" && dirnameOf(f.file.path) === dir);
  const mlmodel = files
    .filter((f) => f.source === chosen.source && f.role === "mlmodel" && isAncestor(dirnameOf(f.file.path), dir))
    .sort((a, b) => depth(b) - depth(a))[0];
  return mlmodel ? [...same, mlmodel] : same;
}

const isAncestor = (dir: string, of: string) => dir === "" || of === dir || of.startsWith(`${dir}/`);

/** Whether a weights file sits in a directory holding an MLmodel (a 2.x model logged under the run). */
export function inModelDir(files: readonly SourcedFile[], f: SourcedFile): boolean {
  return files.some((m) => m.source === f.source && m.role === "mlmodel" && isAncestor(dirnameOf(m.file.path), dirnameOf(f.file.path)));
}
