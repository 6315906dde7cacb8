import { readFile } from "node:fs/promises";
import { basename, dirname, relative, sep } from "node:path";
import { csvFormat } from "../../artifacts/mlflow/build/training.js";
import type { SniffedDocument } from "../../artifacts/mlflow/build/sniffed.js";
import { isRecord } from "../../artifacts/json-values.js";
import { isEvalsResult } from "../../nodes/training/parse/boosting.js";
import { readTrainingArguments } from "../../nodes/checkpoint/file/training-args.js";
import { type Classified, classifyFile } from "./classify.js";
import { type FileStoreRun, isRunMeta, readFileStoreRun } from "./mlflow-store.js";
import { readTrackerStores } from "./tracker-stores.js";
import { type EventFile, metricsFromEventFiles } from "./tfevents.js";
import { catboostMetrics } from "./text-metrics.js";
import { notSentReason } from "./unsent.js";
import { type Located, locate, reasonOf, type Skipped } from "./locate.js";
import { type FoundFile, rankFiles } from "./walk.js";

/** A file used, and the request field it went into. */
export interface Used {
  source: string;
  target: string;
  label: string;
}

/** The checkpoint chosen: one weights file, or a folder of them with the files beside them (config.json…). */
export interface CheckpointChoice {
  /** The file, or the folder whose files are listed. */
  path: string;
  files: FoundFile[] | null;
}

/** Everything the paths yielded, before checkpoints are scanned and the request is assembled. */
export interface DetectedRun {
  metrics: unknown;
  params: Record<string, unknown>;
  logs: string[];
  metadata: Record<string, unknown>;
  documents: SniffedDocument[];
  checkpoint: CheckpointChoice | null;
  used: Used[];
  skipped: Skipped[];
}

/** Metric sources in the service's own order of preference (artifacts/mlflow/pull.ts): structure first. */
const METRICS_RANK = ["trainer_state", "metrics_csv", "rows", "jsonl", "boosting", "tfevents", "mlflow", "wandb"] as const;
type MetricsKind = (typeof METRICS_RANK)[number];
/** Subfolders Keras' TensorBoard callback writes per split. */
const SPLIT_DIRS = new Set(["train", "validation", "eval", "val", "test"]);
const CSV_LABEL = { lightning_csv: "Lightning CSVLogger metrics", keras_csv: "Keras CSVLogger log", csv: "metrics CSV" } as const;

/**
 * Reads the run folders and files given and decides what goes where: one metrics source (the service's order of
 * preference, then the shallowest and newest file), hyper-parameters, logs, every check report, and one
 * checkpoint (the shallowest folder of weights, the newest `checkpoint-N/`). `choice.run` names the run to take
 * from a store holding several (--run). Nothing is sent from here.
 */
export async function detectRun(paths: readonly string[], choice: { run?: string | null } = {}): Promise<DetectedRun> {
  const run: DetectedRun = { metrics: undefined, params: {}, logs: [], metadata: {}, documents: [], checkpoint: null, used: [], skipped: [] };
  const located = await locate(paths, run.skipped);
  const byPath = new Map(located.map((l) => [l.file.path, l]));
  const metrics: Array<{ kind: MetricsKind; at: Located; value: () => unknown; label: string }> = [];
  const events: Array<{ at: Located } & EventFile> = [];
  const checkpoints: Located[] = [];
  const sidecars: Located[] = [];
  /** training_args.bin and config.json: the Trainer's hyper-parameters and the model's labels, when metrics are its. */
  const trainerFiles: Located[] = [];
  const trainerConfigs: Array<{ at: Located; config: Record<string, unknown> }> = [];
  const consumed = new Set<string>();
  const catboost: Array<{ at: Located; text: string }> = [];

  for (const mlrun of await fileStoreRuns(located)) {
    mlrun.consumed.forEach((p) => consumed.add(p));
    const at = byPath.get([...mlrun.consumed][0]!)!;
    if (run.metadata.mlflow) {
      run.skipped.push({ source: dirname(at.shown), reason: "another MLflow run: analyse one run at a time (name its folder)", problem: false });
      continue;
    }
    run.metadata.mlflow = { run_id: mlrun.runId, run_name: mlrun.runName, experiment_id: mlrun.experimentId, tags: mlrun.tags };
    Object.assign(run.params, mlrun.params);
    run.used.push({ source: dirname(at.shown), target: "training_artifacts.params", label: `MLflow run ${mlrun.runId}: ${Object.keys(mlrun.params).length} params, tags` });
    const metricsDir = { ...at, shown: `${dirname(at.shown)}/metrics/` };
    if (mlrun.metrics.length > 0) metrics.push({ kind: "mlflow", at: metricsDir, value: () => mlrun.metrics, label: `MLflow file store metrics (${new Set(mlrun.metrics.map((m) => m.key)).size} keys)` });
  }

  // MLflow's SQLite store and W&B run folders (client/detect/tracker-stores.ts).
  const stores = await readTrackerStores(located.filter((l) => !consumed.has(l.file.path)), choice.run ?? null);
  stores.consumed.forEach((p) => consumed.add(p));
  run.used.push(...stores.used);
  run.skipped.push(...stores.skipped);
  for (const s of stores.runs) {
    if (run.metadata[s.tracker]) {
      run.skipped.push({ source: s.source, reason: `another ${s.tracker === "mlflow" ? "MLflow" : "W&B"} run: analyse one run at a time (name its folder)`, problem: false });
      continue;
    }
    run.metadata[s.tracker] = s.metadata;
    Object.assign(run.params, s.params);
    if (Object.keys(s.params).length > 0) run.used.push({ source: s.source, target: "training_artifacts.params", label: `${Object.keys(s.params).length} params of the run` });
    const at = located.find((l) => l.shown === s.source) ?? located[0]!;
    if (s.metrics !== null) metrics.push({ kind: s.tracker, at: { ...at, shown: s.source }, value: () => s.metrics, label: s.label });
    else run.skipped.push({ source: s.source, reason: "the run logged no numeric metric", problem: false });
  }

  for (const at of located) {
    if (consumed.has(at.file.path)) continue;
    if (basename(at.file.path) === "training_args.bin") trainerFiles.push(at);
    let c: Classified;
    try {
      c = await classifyFile(at.file);
    } catch (err) {
      run.skipped.push({ source: at.shown, reason: reasonOf(err), problem: true });
      continue;
    }
    switch (c.as) {
      case "checkpoint":
        checkpoints.push(at);
        break;
      case "tfevents":
        events.push({ at, relative: at.file.relative, path: at.file.path });
        break;
      case "metrics_csv": {
        const siblings = located.map((l) => l.file.relative.replaceAll(sep, "/"));
        const format = csvFormat(at.file.relative.replaceAll(sep, "/"), c.text, siblings);
        metrics.push({ kind: "metrics_csv", at, value: () => ({ format, content: c.text }), label: CSV_LABEL[format] });
        break;
      }
      case "document":
        if (c.sniffed.kind === "training" && (c.sniffed.as === "trainer_state" || c.sniffed.as === "rows" || c.sniffed.as === "arrays")) {
          const kind = c.sniffed.as === "trainer_state" ? "trainer_state" : "rows";
          const value = kind === "trainer_state" ? { format: "hf_trainer_state", content: c.doc.value } : c.doc.value;
          metrics.push({ kind, at, value: () => value, label: kind === "trainer_state" ? "Hugging Face trainer_state.json" : historyLabel(c.doc.value) });
          // The checkpoint folder's trainer_state.json also tells the step and epoch it was saved at.
          if (kind === "trainer_state") sidecars.push(at);
        } else if (c.sniffed.as === "mlflow_dataset" && run.documents.some((d) => d.sniffed.as === "mlflow_dataset")) {
          // MLflow 3 keeps one datasets/<id>/meta.yaml per logged dataset: references, of which the statistics take one.
          run.skipped.push({ source: at.shown, reason: `another MLflow dataset reference (${datasetName(c.doc.value)}): the first found is sent`, problem: false });
        } else if (c.sniffed.kind === "checks" || c.sniffed.kind === "dataset") {
          run.documents.push({ doc: c.doc, sniffed: c.sniffed });
          const label = c.sniffed.as === "mlflow_dataset" ? `MLflow dataset reference (${datasetName(c.doc.value)})` : reportLabel(c.doc.value);
          run.used.push({ source: at.shown, target: c.sniffed.kind === "checks" ? "checks_artifacts" : "dataset_artifacts", label });
        } else {
          run.skipped.push({ source: at.shown, reason: `a ${c.sniffed.kind} payload in a shape the client does not merge; send it with curl`, problem: at.named });
        }
        break;
      case "metrics_jsonl":
        metrics.push({ kind: "jsonl", at, value: () => ({ format: "jsonl", content: c.text }), label: "JSON-lines metrics log" });
        break;
      case "catboost_tsv":
        catboost.push({ at, text: c.text });
        break;
      case "plain_document":
        if (c.doc.role === "hparams" && isRecord(c.doc.value)) {
          Object.assign(run.params, c.doc.value);
          run.used.push({ source: at.shown, target: "training_artifacts.params", label: "hyper-parameters" });
        } else if (basename(at.file.path) === "config.json" || at.file.path.endsWith(".index.json")) {
          sidecars.push(at);
          if (basename(at.file.path) === "config.json" && isRecord(c.doc.value)) trainerConfigs.push({ at, config: c.doc.value });
        } else {
          run.skipped.push({ source: at.shown, reason: notSentReason(at.file, "a JSON/YAML file that is no report, metric history or statistics the service reads"), problem: at.named });
        }
        break;
      case "log":
        if (at.named || run.logs.length === 0) {
          run.logs.push(...c.text.split(/\r?\n/).filter((l) => l.trim() !== ""));
          run.used.push({ source: at.shown, target: "training_artifacts.logs", label: "log lines" });
        } else {
          run.skipped.push({ source: at.shown, reason: "another log is sent already: name this one to send it too", problem: false });
        }
        break;
      case "unrecognized":
        run.skipped.push({ source: at.shown, reason: notSentReason(at.file, c.reason), problem: at.named });
        break;
      default:
        throw new Error(`unhandled classification ${(c as { as: string }).as}`);
    }
  }

  const firstCatboost = catboost[0];
  if (firstCatboost) {
    const dir = dirname(firstCatboost.at.file.path);
    const files = catboost.filter((f) => dirname(f.at.file.path) === dir);
    for (const f of catboost) if (dirname(f.at.file.path) !== dir) run.skipped.push({ source: f.at.shown, reason: `CatBoost's history comes from ${dirname(firstCatboost.at.shown)}/`, problem: false });
    metrics.push({ kind: "boosting", at: { ...firstCatboost.at, shown: `${dirname(firstCatboost.at.shown)}/` }, value: () => catboostMetrics(files.map((f) => ({ relative: f.at.file.relative, text: f.text }))), label: `CatBoost ${files.map((f) => basename(f.at.file.path)).join(" + ")}` });
  }
  const tb = groupEvents(events);
  if (tb) metrics.push({ kind: "tfevents", at: tb.at, value: () => metricsFromEventFiles(tb.files), label: tb.label });
  const chosen = pickMetrics(run, metrics);
  if (chosen === "trainer_state") await addTrainerParams(run, trainerFiles[0], trainerConfigs[0]);
  run.checkpoint = pickCheckpoint(run, checkpoints, sidecars);
  return run;
}

function historyLabel(value: unknown): string {
  return isRecord(value) && isEvalsResult(value) ? "boosting evals_result() history" : "metric history JSON (Keras History)";
}

/** A logged MLflow dataset's name and digest, as its meta.yaml gives them. */
function datasetName(value: unknown): string {
  const d = isRecord(value) && isRecord(value.dataset) ? value.dataset : value;
  return isRecord(d) ? `${String(d.name ?? "unnamed")}, digest ${String(d.digest)}` : "unnamed";
}

function reportLabel(value: unknown): string {
  if (!isRecord(value)) return "check list";
  if ("anomaly_info" in value || "anomalyInfo" in value) return "TFDV anomalies";
  if ("dataset_name" in value && isRecord(value.results)) return "Deepchecks suites (legacy client)";
  if ("conditions_results" in value || value.type === "SuiteResult" || value.type === "CheckResult") return "Deepchecks result";
  if ("validation_results" in value || "expectations" in value || ("success" in value && "statistics" in value)) return "Great Expectations result";
  if ("metrics" in value || "tests" in value) return "Evidently report";
  return "report";
}

async function fileStoreRuns(located: readonly Located[]): Promise<FileStoreRun[]> {
  const metas = located.filter((l) => basename(l.file.path) === "meta.yaml" && l.file.size < 1 << 16);
  const all = located.map((l) => l.file);
  const runs: FileStoreRun[] = [];
  for (const m of metas) {
    const text = await readFile(m.file.path, "utf8").catch(() => "");
    if (isRunMeta(m.file, text)) runs.push(await readFileStoreRun(m.file, text, all));
  }
  // The newest run first: it is the one a person who points at an experiment folder most likely means.
  return runs.sort((a, b) => (b.startTime ?? 0) - (a.startTime ?? 0));
}

/** Event files of one run: those in the first folder holding any, with its `train/` and `validation/` subfolders. */
function groupEvents(events: ReadonlyArray<{ at: Located } & EventFile>): { at: Located; files: EventFile[]; label: string } | null {
  const first = events[0];
  if (!first) return null;
  const split = (dir: string) => SPLIT_DIRS.has(basename(dir));
  const runDir = (e: { relative: string }) => (split(dirname(e.relative)) ? dirname(dirname(e.relative)) : dirname(e.relative));
  const root = runDir(first);
  const inRun = (e: { relative: string }) => (root === "." ? e.relative : relative(root, e.relative));
  const files = events.filter((e) => runDir(e) === root).map((e) => ({ path: e.path, relative: inRun(e) }));
  return { at: first.at, files, label: `TensorBoard event file${files.length > 1 ? `s (${files.length})` : ""}` };
}

/**
 * A Trainer run's hyper-parameters (training_args.bin: learning_rate, optim, warm-up…) and its model's config.json
 * (num_labels, id2label) as params: trainer_state.json holds neither, and the detectors judge the learning rate and
 * chance level from them. The shallowest, newest files win, as for everything else.
 */
async function addTrainerParams(run: DetectedRun, args: Located | undefined, config: { at: Located; config: Record<string, unknown> } | undefined): Promise<void> {
  if (config) {
    Object.assign(run.params, config.config);
    run.used.push({ source: config.at.shown, target: "training_artifacts.params", label: "model config" });
  }
  if (!args) return;
  try {
    const fields = await readTrainingArguments(args.file.path);
    Object.assign(run.params, fields);
    run.used.push({ source: args.shown, target: "training_artifacts.params", label: `TrainingArguments (${Object.keys(fields).length} fields, read without unpickling)` });
  } catch (err) {
    run.skipped.push({ source: args.shown, reason: `TrainingArguments not readable: ${reasonOf(err)}`, problem: false });
  }
}

function pickMetrics(run: DetectedRun, candidates: ReadonlyArray<{ kind: MetricsKind; at: Located; value: () => unknown; label: string }>): MetricsKind | null {
  const ranked = [...candidates].sort((a, b) => METRICS_RANK.indexOf(a.kind) - METRICS_RANK.indexOf(b.kind));
  const [chosen, ...rest] = ranked;
  if (!chosen) return null;
  run.metrics = chosen.value();
  run.used.push({ source: chosen.at.shown, target: "training_artifacts.metrics", label: chosen.label });
  for (const r of rest) run.skipped.push({ source: r.at.shown, reason: `metrics already come from ${chosen.at.shown}`, problem: false });
  return chosen.kind;
}

/** The checkpoint: weights files grouped by folder; the first folder in rank order (shallowest, newest `checkpoint-N/`). */
function pickCheckpoint(run: DetectedRun, weights: readonly Located[], sidecars: readonly Located[]): CheckpointChoice | null {
  const first = weights[0];
  if (!first) return null;
  const folderOf = (l: Located) => dirname(l.file.path);
  const folder = folderOf(first);
  const group = weights.filter((w) => folderOf(w) === folder);
  for (const w of weights) if (folderOf(w) !== folder) run.skipped.push({ source: w.shown, reason: `the checkpoint is ${dirname(first.shown)}/ (one per analysis: name another to analyse it)`, problem: false });
  const beside = sidecars.filter((s) => folderOf(s) === folder);
  if (group.length === 1 && beside.length === 0) {
    run.used.push({ source: first.shown, target: "model_checkpoint_artifacts", label: "checkpoint" });
    return { path: first.file.path, files: null };
  }
  const files = rankFiles([...group, ...beside].map((l) => ({ ...l.file, relative: basename(l.file.path) })));
  run.used.push({ source: `${dirname(first.shown)}/`, target: "model_checkpoint_artifacts", label: `checkpoint folder (${files.map((f) => f.relative).join(", ")})` });
  return { path: folder, files };
}
