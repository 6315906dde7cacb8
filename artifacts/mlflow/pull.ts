import { isRecord } from "../json-values.js";
import { type ArtifactInput, type ArtifactKind, REQUEST_FIELD_BY_KIND } from "../context.js";
import { formatBytes } from "./budget.js";
import { buildCheckpoint, rankCheckpoints } from "./build/checkpoint.js";
import { checkpointCandidates, downloadCheckpoint } from "./candidates.js";
import { buildChecks } from "./build/checks.js";
import { buildDataset } from "./build/dataset.js";
import { type SniffedDocument, sniffAll } from "./build/sniffed.js";
import { buildTraining, csvFormat, isKerasCsvLog, type MetricsSource } from "./build/training.js";
import type { MlflowClient } from "./client.js";
import { type PulledDocument, readDocuments } from "./documents.js";
import { MlflowError } from "./errors.js";
import { describeInventory, type SourcedFile, takeInventory } from "./inventory.js";
import type { LocatedRun } from "./locate.js";
import { mapSettled } from "./map-settled.js";
import type { Metric } from "./schemas.js";
import { checkpointSidecars, documentFiles, trainingFiles } from "./select.js";

export interface PullOptions {
  /** Kinds to pull: those the request did not send inline. */
  kinds: ReadonlySet<ArtifactKind>;
  workspace: string;
  progress: (message: string) => void;
}

/** Metric keys whose history is fetched at most; MLflow's own system metrics are skipped. */
const MAX_METRIC_KEYS = 500;
const HISTORY_CONCURRENCY = 4;

/**
 * Turns a located run into artifact inputs: lists it (and its MLflow 3 logged models), reads the documents that
 * can hold an artifact, falls back to metric histories for training, and streams the chosen checkpoint into the
 * workspace. Throws MLFLOW_NOT_FOUND when the run holds nothing any analyzer can use.
 */
export async function pullRun(client: MlflowClient, located: LocatedRun, options: PullOptions): Promise<ArtifactInput[]> {
  const { run } = located;
  const wants = (k: ArtifactKind) => options.kinds.has(k);
  const files = await takeInventory(client, located);
  options.progress(`run ${run.info.run_id}${run.info.run_name ? ` (${run.info.run_name})` : ""}: ${describeInventory(files)}`);

  // Any document may hold any kind (a request-field file, a report, statistics), so they are read whatever is wanted.
  const toRead = [...documentFiles(files), ...(wants("training") ? trainingFiles(files) : [])];
  const docs = await readDocuments(client.http, toRead);
  if (docs.length > 0) options.progress(`read ${docs.length} document(s), ${formatBytes(docs.reduce((n, d) => n + d.size, 0))}`);
  const sniffed = sniffAll(docs);

  const out: ArtifactInput[] = [];
  const add = (kind: ArtifactKind, payload: Record<string, unknown> | null) => {
    if (payload && wants(kind)) out.push({ kind, field: REQUEST_FIELD_BY_KIND[kind], payload, origin: "mlflow" });
  };
  // Inputs and histories belong to the whole run, not to a runs:/<id>/<path> sub-tree.
  add("dataset", buildDataset(sniffed, located.path ? [] : run.inputs.dataset_inputs));
  add("checks", buildChecks(sniffed));
  if (wants("training")) add("training", await training(client, located, docs, sniffed, files, options));
  if (wants("checkpoint")) add("checkpoint", await checkpoint(client, files, sniffed, options));

  if (out.length === 0) {
    const where = located.path ? `under '${located.path}' of run '${run.info.run_id}'` : `in run '${run.info.run_id}'`;
    throw new MlflowError(
      "MLFLOW_NOT_FOUND",
      `no analyzable artifact found ${where} on the tracking server ${client.http.endpoint.display} ` +
        `(looked for ${[...options.kinds].join(", ")}: metric histories, metrics files, reports, dataset statistics or inputs, checkpoints; ${describeInventory(files)})`,
    );
  }
  options.progress(`pulled ${out.map((a) => a.kind).join(", ")} from run ${run.info.run_id}`);
  return out;
}

async function training(
  client: MlflowClient,
  located: LocatedRun,
  docs: readonly PulledDocument[],
  sniffed: readonly SniffedDocument[],
  files: readonly SourcedFile[],
  options: PullOptions,
): Promise<Record<string, unknown> | null> {
  const mine = sniffed.filter((d) => d.sniffed.kind === "training");
  const base = mine.find((d) => d.sniffed.as === "payload" || d.sniffed.as === "legacy")?.doc.value;
  const metrics = metricsFromFiles(docs, mine, files) ?? (await metricsFromHistory(client, located, options));
  return buildTraining({
    run: located.run,
    base: isRecord(base) ? base : null,
    metrics,
    hparams: docs.filter((d) => d.role === "hparams"),
    logs: docs.filter((d) => d.role === "log" && !isKerasCsvLog(d)),
  });
}

/** The best file-based metrics: trainer_state, a metrics CSV, a Keras CSV log, JSON rows/arrays, then tfevents. */
function metricsFromFiles(docs: readonly PulledDocument[], sniffed: readonly SniffedDocument[], files: readonly SourcedFile[]): MetricsSource | null {
  const doc = (role: PulledDocument["role"]) => docs.find((d) => d.role === role);
  const state = doc("trainer_state");
  if (state && isRecord(state.value)) return { from: "document", doc: state, metrics: state.value };
  const csv = doc("metrics_csv") ?? docs.find((d) => d.role === "log" && isKerasCsvLog(d));
  if (csv) {
    const format = csv.role === "log" ? "keras_csv" : csvFormat(csv.path, csv.text, files.map((f) => f.file.path));
    return { from: "document", doc: csv, metrics: { format, content: csv.text } };
  }
  const rows = sniffed.find((d) => ["rows", "arrays", "trainer_state"].includes(d.sniffed.as));
  if (rows) return { from: "document", doc: rows.doc, metrics: rows.doc.value };
  const events = doc("tfevents");
  if (events) return { from: "document", doc: events, metrics: { format: "tfevents", content_base64: Buffer.from(events.bytes).toString("base64") } };
  return null;
}

async function metricsFromHistory(client: MlflowClient, located: LocatedRun, options: PullOptions): Promise<MetricsSource | null> {
  if (located.path !== "") return null;
  const keys = [...new Set(located.run.data.metrics.map((m) => m.key))].filter((k) => !k.startsWith("system/")).slice(0, MAX_METRIC_KEYS);
  if (keys.length === 0) return null;
  options.progress(`reading the history of ${keys.length} metric(s)`);
  const runId = located.run.info.run_id;
  const series = await mapSettled(keys, HISTORY_CONCURRENCY, async (key) => [key, await client.metricHistory(runId, key)] as const);
  const histories: Record<string, Metric[]> = Object.fromEntries(series);
  return { from: "history", histories };
}

async function checkpoint(
  client: MlflowClient,
  files: readonly SourcedFile[],
  sniffed: readonly SniffedDocument[],
  options: PullOptions,
): Promise<Record<string, unknown> | null> {
  const baseDoc = sniffed.find((d) => d.sniffed.kind === "checkpoint")?.doc.value;
  const base = isRecord(baseDoc) ? baseDoc : null;
  const [chosen, ...others] = rankCheckpoints(await checkpointCandidates(client, files));
  if (!chosen) return base;
  await downloadCheckpoint(client, chosen, options.workspace, options.progress);
  const sidecars = await readDocuments(client.http, checkpointSidecars(files, chosen));
  return buildCheckpoint({ chosen, sidecars, base, others });
}

