import type { FileInfo } from "./schemas.js";

/** What a file in a run (or a logged model) is, judged from its path alone; content sniffing comes later. */
export type FileRole =
  /** Hugging Face `trainer_state.json`. */
  | "trainer_state"
  /** A metrics CSV (Lightning CSVLogger, Keras CSVLogger, the legacy client's long export). */
  | "metrics_csv"
  /** TensorBoard event file. */
  | "tfevents"
  /** Lightning `hparams.yaml` or the legacy client's `params.yaml`. */
  | "hparams"
  /** Plain-text log lines (may turn out to be a Keras CSVLogger `training.log`). */
  | "log"
  /** JSON or YAML whose content decides: a report, dataset statistics, training rows, a legacy YAML… */
  | "document"
  /** Model weights. */
  | "checkpoint"
  /** A file beside weights that describes them (HF config.json, Lightning metadata.yaml/aliases.txt, `<file>.json`). */
  | "checkpoint_sidecar"
  /** MLflow model descriptor (`MLmodel`). */
  | "mlmodel";

export interface RoleFile {
  role: FileRole;
  file: FileInfo;
}

export const CHECKPOINT_EXTENSIONS = [".safetensors", ".ckpt", ".pt", ".pth", ".bin"] as const;
/** Training-state files with a weights extension that are not the model (HF checkpoint dirs, Lightning). */
const NOT_WEIGHTS = /^(optimizer|scheduler|scaler|rng_state.*|training_args|trainer_state)\.(pt|pth|bin)$/;
const METRICS_CSV_NAMES = new Set(["metrics.csv", "history.csv", "training.csv", "train_log.csv", "training_log.csv", "log.csv", "progress.csv"]);
/** JSON/YAML that belong to a model or an environment, never to a report. */
const NOT_DOCUMENTS = new Set([
  "conda.yaml",
  "python_env.yaml",
  "requirements.txt",
  "tokenizer.json",
  "tokenizer_config.json",
  "special_tokens_map.json",
  "added_tokens.json",
  "vocab.json",
  "generation_config.json",
  "preprocessor_config.json",
  "adapter_config.json",
  "input_example.json",
  "serving_input_example.json",
  "registered_model_meta",
]);

export const basename = (path: string) => path.slice(path.lastIndexOf("/") + 1);
export const dirnameOf = (path: string) => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "");
const extension = (name: string) => (name.includes(".") ? name.slice(name.lastIndexOf(".")).toLowerCase() : "");

/** The role of one file by its path, or null when the service has no use for it. */
export function roleOf(path: string): FileRole | null {
  const name = basename(path);
  const lower = name.toLowerCase();
  const ext = extension(lower);
  if (name === "MLmodel") return "mlmodel";
  if (lower === "trainer_state.json") return "trainer_state";
  if (lower.startsWith("events.out.tfevents")) return "tfevents";
  if ((CHECKPOINT_EXTENSIONS as readonly string[]).includes(ext)) return NOT_WEIGHTS.test(lower) ? null : "checkpoint";
  if (NOT_DOCUMENTS.has(lower)) return null;
  if (lower === "hparams.yaml" || lower === "params.yaml") return "hparams";
  if (ext === ".csv") return METRICS_CSV_NAMES.has(lower) || /(^|\/)(lightning_logs|csv_logs|logs)\//.test(path) ? "metrics_csv" : null;
  if (ext === ".log" || (ext === ".txt" && /(^|\/)logs?\/|log|stdout|stderr/i.test(path) && lower !== "aliases.txt")) return "log";
  if (ext === ".json" || ext === ".yaml" || ext === ".yml") return "document";
  return null;
}

/** Directories that hold an MLflow model (an `MLmodel` file): only weights and MLmodel count inside them. */
function modelDirs(files: readonly FileInfo[]): string[] {
  return files.filter((f) => basename(f.path) === "MLmodel").map((f) => dirnameOf(f.path));
}

const inside = (dir: string, path: string) => dir === "" || path.startsWith(`${dir}/`);

/** Classifies every file of a listing; files with no role, and other files inside model directories, are left out. */
export function classifyFiles(files: readonly FileInfo[]): RoleFile[] {
  const models = modelDirs(files);
  const weights = weightsByDir(files);
  const out: RoleFile[] = [];
  for (const file of files) {
    const role = isSidecar(file.path, weights) ? "checkpoint_sidecar" : roleOf(file.path);
    if (!role) continue;
    const inModel = models.some((d) => inside(d, file.path));
    if (inModel && role !== "checkpoint" && role !== "mlmodel" && role !== "checkpoint_sidecar") continue;
    out.push({ role, file });
  }
  return out.sort((a, b) => a.file.path.localeCompare(b.file.path));
}

/** Lower-cased weights file names per directory. */
function weightsByDir(files: readonly FileInfo[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const f of files) {
    if (roleOf(f.path) !== "checkpoint") continue;
    const dir = dirnameOf(f.path);
    out.set(dir, [...(out.get(dir) ?? []), basename(f.path).toLowerCase()]);
  }
  return out;
}

const SIDECAR_NAMES = new Set(["config.json", "metadata.yaml", "aliases.txt", "checkpoint_metadata.json", "model_checkpoint_artifacts.json"]);

/** A file beside weights that describes them: HF config.json, Lightning's metadata.yaml, `<file>.json`, the shard index. */
function isSidecar(path: string, weightsIn: Map<string, string[]>): boolean {
  const weights = weightsIn.get(dirnameOf(path));
  const name = basename(path).toLowerCase();
  if (!weights || roleOf(path) === "checkpoint") return false;
  const stem = (w: string) => w.slice(0, w.lastIndexOf("."));
  return (
    SIDECAR_NAMES.has(name) ||
    name.endsWith(".index.json") ||
    weights.some((w) => name === `${w}.json` || name === `${w}.yaml` || name === `${stem(w)}.json` || name === `${stem(w)}.yaml`)
  );
}
