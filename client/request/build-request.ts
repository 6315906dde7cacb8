import { resolve } from "node:path";
import { buildChecks } from "../../artifacts/mlflow/build/checks.js";
import { buildDataset } from "../../artifacts/mlflow/build/dataset.js";
import { AnalysisRequestSchema, type AnalysisRequest } from "../../artifacts/request.js";
import type { DetectedRun } from "../detect/detect-run.js";
import type { Skipped } from "../detect/locate.js";
import { ClientError } from "../errors.js";

/** The request fields a client fills with artifacts. */
export type ArtifactField = "dataset_artifacts" | "checks_artifacts" | "training_artifacts" | "model_checkpoint_artifacts";

/**
 * One artifact ready to send, with the files it came from. Detection yields these, and so will any other source
 * (client-side dataset statistics from --data, issue #14): `mergeArtifacts` is the one place they meet.
 */
export interface ArtifactPart {
  field: ArtifactField;
  payload: Record<string, unknown>;
  sources: string[];
}

/** Request options that are not artifacts. */
export interface RequestOptions {
  datasetName: string | null;
  modelName: string | null;
  language: string | null;
  strict: boolean;
  /** `--mlflow-run`: a run id or a `runs:/<id>[/path]` URI the service pulls from its tracking server. */
  mlflowRun: string | null;
}

/** The parts a detected run yields (the checkpoint comes separately: it is scanned or sent as a path). */
export function detectedParts(run: DetectedRun): { parts: ArtifactPart[]; skipped: Skipped[] } {
  const parts: ArtifactPart[] = [];
  const skipped: Skipped[] = [];
  const sources = (target: string) => run.used.filter((u) => u.target.startsWith(target)).map((u) => u.source);
  if (run.metrics !== undefined || run.logs.length > 0) {
    const training: Record<string, unknown> = {};
    if (run.metrics !== undefined) training.metrics = run.metrics;
    if (Object.keys(run.params).length > 0) training.params = run.params;
    if (run.logs.length > 0) training.logs = run.logs;
    if (Object.keys(run.metadata).length > 0) training.metadata = run.metadata;
    parts.push({ field: "training_artifacts", payload: training, sources: sources("training_artifacts") });
  } else if (Object.keys(run.params).length > 0) {
    for (const u of run.used.filter((x) => x.target === "training_artifacts.params")) {
      skipped.push({ source: u.source, reason: "hyper-parameters without any metrics or logs: nothing to analyse them against", problem: false });
    }
  }
  const checks = buildChecks(run.documents);
  if (checks) parts.push({ field: "checks_artifacts", payload: checks, sources: sources("checks_artifacts") });
  const dataset = buildDataset(run.documents, []);
  if (dataset) parts.push({ field: "dataset_artifacts", payload: dataset, sources: sources("dataset_artifacts") });
  return { parts, skipped };
}

/**
 * Merges artifact parts into request fields: a later part for a field replaces an earlier one (parts from flags
 * come after detected ones, so what the person asked for wins), and the replaced one is reported as skipped.
 */
export function mergeArtifacts(parts: readonly ArtifactPart[]): { fields: Partial<Record<ArtifactField, Record<string, unknown>>>; skipped: Skipped[] } {
  const chosen = new Map<ArtifactField, ArtifactPart>();
  const skipped: Skipped[] = [];
  for (const part of parts) {
    const earlier = chosen.get(part.field);
    if (earlier) {
      for (const source of earlier.sources) skipped.push({ source, reason: `${part.field} comes from ${part.sources.join(", ")} instead`, problem: false });
    }
    chosen.set(part.field, part);
  }
  return { fields: Object.fromEntries([...chosen].map(([field, part]) => [field, part.payload])), skipped };
}

/** `--mlflow-run`: `runs:/…` goes as run_uri, anything else as run_id (the service validates both). */
function mlflowReference(value: string): AnalysisRequest["mlflow"] {
  return value.startsWith("runs:/") ? { run_uri: value } : { run_id: value };
}

/**
 * The request body: the merged artifacts and options, validated with the service's own schema so a malformed
 * body is caught here with its field path instead of costing a round trip.
 */
export function assembleRequest(parts: readonly ArtifactPart[], options: RequestOptions): { request: Record<string, unknown>; skipped: Skipped[] } {
  const { fields, skipped } = mergeArtifacts(parts);
  const request: Record<string, unknown> = {
    ...(options.datasetName ? { dataset_name: options.datasetName } : {}),
    ...(options.modelName ? { model_name: options.modelName } : {}),
    ...(options.language ? { language: options.language } : {}),
    ...fields,
    ...(options.mlflowRun ? { mlflow: mlflowReference(options.mlflowRun) } : {}),
    ...(options.strict ? { strict: true } : {}),
  };
  if (Object.keys(fields).length === 0 && !options.mlflowRun) {
    throw new ClientError("INPUT", "nothing to analyse: no metrics log, report, checkpoint or event file was found in the paths given (see the lines above), and no --mlflow-run");
  }
  const parsed = AnalysisRequestSchema.safeParse(request);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ClientError("INPUT", `the request would be refused: ${issue.path.join(".")}: ${issue.message}`);
  }
  return { request, skipped };
}

/** The checkpoint part: scanned metadata, or (--server-paths) the absolute path for a service on this machine. */
export function checkpointPart(choice: { path: string }, source: string, metadata: Record<string, unknown> | null): ArtifactPart {
  const payload = metadata ? { metadata } : { checkpoint_path: resolve(choice.path) };
  return { field: "model_checkpoint_artifacts", payload, sources: [source] };
}

