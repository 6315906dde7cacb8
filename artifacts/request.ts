import { z } from "zod";
import { ChecksArtifactSchema } from "../nodes/checks/schema.js";
import { CheckpointArtifactSchema } from "../nodes/checkpoint/schema.js";
import { DatasetArtifactSchema } from "../nodes/dataset/schema.js";
import { TrainingArtifactSchema } from "../nodes/training/schema.js";
import { type AnalysisContext, type ArtifactInput, type ArtifactKind, REQUEST_FIELD_BY_KIND } from "./context.js";
import { formatPath } from "./format-path.js";
import { MlflowReferenceSchema } from "./mlflow/reference.js";
import { MAX_NAME_LENGTH, nameField } from "./request-limits.js";
import { normalizeLanguage } from "./language.js";
import { findExcessiveNesting, MAX_NESTING, shortPath } from "./nesting.js";

export { formatPath };

/** Longest `language` (a name like "Brazilian Portuguese" or a tag like "zh-Hant-TW"). */
const MAX_LANGUAGE_LENGTH = 100;

/** Body of POST /v1/analyse: the current shape and the original Python client's legacy field names. */
export const AnalysisRequestSchema = z.looseObject({
  dataset_name: nameField().nullish(),
  language: z.string().max(MAX_LANGUAGE_LENGTH).nullish(),
  model_name: nameField().nullish(),
  dataset_artifacts: DatasetArtifactSchema.nullish(),
  checks_artifacts: ChecksArtifactSchema.nullish(),
  /** Legacy name of checks_artifacts. */
  deepchecks_artifacts: ChecksArtifactSchema.nullish(),
  training_artifacts: TrainingArtifactSchema.nullish(),
  model_checkpoint_artifacts: CheckpointArtifactSchema.nullish(),
  mlflow: MlflowReferenceSchema.nullish(),
  /** Any agent failure becomes a 500 instead of a partial result. */
  strict: z.boolean().nullish(),
  /** Return per-node spans in additional_outputs.trace and the bounded training curves the report charts. */
  trace: z.boolean().nullish(),
});
export type AnalysisRequest = z.infer<typeof AnalysisRequestSchema>;

/** The request could not be turned into an analysis context; the message names the field path. */
export class RequestDecodeError extends Error {
  override name = "RequestDecodeError";
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${formatPath(i.path)}: ${i.message.replace(/^Invalid input: /, "")}`)
    .join("; ");
}

/** Validates a parsed body and normalizes current and legacy shapes into one analysis context. */
export function decodeAnalysisRequest(body: unknown, requestId: string): AnalysisContext {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new RequestDecodeError(`(body): expected a JSON object, received ${Array.isArray(body) ? "array" : body === null ? "null" : typeof body}`);
  }
  const tooDeep = findExcessiveNesting(body);
  if (tooDeep) throw new RequestDecodeError(`${shortPath(tooDeep)}: nested deeper than ${MAX_NESTING} levels`);
  const parsed = AnalysisRequestSchema.safeParse(body);
  if (!parsed.success) throw new RequestDecodeError(describeIssues(parsed.error));
  const req = parsed.data;
  if (req.checks_artifacts && req.deepchecks_artifacts) {
    throw new RequestDecodeError("deepchecks_artifacts: give either checks_artifacts or its legacy name deepchecks_artifacts, not both");
  }

  const artifacts: ArtifactInput[] = [];
  const add = (kind: ArtifactKind, field: string, payload: Record<string, unknown> | null | undefined) => {
    if (payload && Object.keys(payload).length > 0) artifacts.push({ kind, field, payload, origin: "inline" });
  };
  add("dataset", "dataset_artifacts", req.dataset_artifacts);
  add("checks", req.deepchecks_artifacts ? "deepchecks_artifacts" : "checks_artifacts", req.checks_artifacts ?? req.deepchecks_artifacts);
  add("training", "training_artifacts", req.training_artifacts);
  add("checkpoint", "model_checkpoint_artifacts", req.model_checkpoint_artifacts && normalizeCheckpoint(req.model_checkpoint_artifacts));

  return {
    requestId,
    datasetName: req.dataset_name ?? legacyDatasetName(req),
    language: normalizeLanguage(req.language),
    modelName: req.model_name ?? null,
    strict: req.strict ?? false,
    trace: req.trace ?? false,
    mlflow: req.mlflow ?? null,
    artifacts,
  };
}

/** The legacy client also names the dataset inside its artifact objects. */
function legacyDatasetName(req: AnalysisRequest): string | null {
  const fields = { dataset_artifacts: req.dataset_artifacts, deepchecks_artifacts: req.deepchecks_artifacts, checks_artifacts: req.checks_artifacts };
  for (const [field, a] of Object.entries(fields)) {
    if (typeof a?.dataset_name !== "string") continue;
    if (a.dataset_name.length > MAX_NAME_LENGTH) throw new RequestDecodeError(`${field}.dataset_name: longer than ${MAX_NAME_LENGTH} characters`);
    return a.dataset_name;
  }
  return null;
}

/** Legacy `{path, config}` → current `{checkpoint_path, metadata: {config}}`. */
function normalizeCheckpoint(a: Record<string, unknown>): Record<string, unknown> {
  const { path, config, ...rest } = a;
  if (path === undefined && config === undefined) return a;
  const metadata = { ...((rest.metadata as Record<string, unknown> | null | undefined) ?? {}) };
  if (config !== undefined && config !== null && metadata.config === undefined) metadata.config = config;
  return { ...rest, checkpoint_path: rest.checkpoint_path ?? path ?? null, metadata };
}

/** Field names a request carries artifacts under, for messages and the OpenAPI document. */
export const ARTIFACT_FIELDS = Object.values(REQUEST_FIELD_BY_KIND);
