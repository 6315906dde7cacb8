import { isRecord } from "../../json-values.js";
import { basename, dirnameOf } from "../discover.js";
import type { PulledDocument } from "../documents.js";
import type { SourcedFile } from "../inventory.js";
import { keyValues, type LoggedModel } from "../schemas.js";
import { latest } from "../select.js";

/** A weights file of the run or of one of its logged models; `uri` becomes the payload's checkpoint_path. */
export interface CheckpointCandidate extends SourcedFile {
  /** Inside a directory holding an `MLmodel` (a 2.x model logged under the run). */
  inModelDir: boolean;
  /** Lightning MLFlowLogger's `aliases.txt` beside it ("latest", "best"). */
  aliases: readonly string[];
}

/** How likely a file is the checkpoint worth analyzing: the legacy client's pick, "best", a logged model, "last". */
function score(c: CheckpointCandidate): number {
  const path = c.file.path.toLowerCase();
  const name = basename(path);
  if (/(^|\/)best_checkpoint\//.test(path)) return 100;
  if (c.aliases.includes("best")) return 90;
  if (name.includes("best")) return 80;
  if (c.model || c.inModelDir) return 60;
  if (/last|final/.test(name)) return 40;
  return 20;
}

/** Candidates best first: score, then later progress, then safetensors (header-only parse), then path. */
export function rankCheckpoints(candidates: readonly CheckpointCandidate[]): CheckpointCandidate[] {
  const safe = (c: CheckpointCandidate) => (c.file.path.endsWith(".safetensors") ? 0 : 1);
  return [...candidates].sort(
    (a, b) =>
      score(b) - score(a) ||
      latest(dirnameOf(b.file.path)) - latest(dirnameOf(a.file.path)) ||
      safe(a) - safe(b) ||
      a.file.path.localeCompare(b.file.path),
  );
}

export interface CheckpointParts {
  chosen: CheckpointCandidate;
  /** Files beside it (config.json, metadata.yaml, aliases.txt, `<file>.json`, shard index) and its MLmodel. */
  sidecars: readonly PulledDocument[];
  /** A `model_checkpoint_artifacts.json` payload found in the run. */
  base: Record<string, unknown> | null;
  others: readonly CheckpointCandidate[];
}

/** `model_checkpoint_artifacts` for the chosen file: its URI and everything known about it. */
export function buildCheckpoint(parts: CheckpointParts): Record<string, unknown> {
  const { chosen } = parts;
  const base = parts.base ?? {};
  const metadata: Record<string, unknown> = isRecord(base.metadata) ? { ...base.metadata } : {};
  for (const doc of parts.sidecars) mergeSidecar(metadata, doc);
  if (chosen.model) metadata.mlflow_model = { ...(isRecord(metadata.mlflow_model) ? metadata.mlflow_model : {}), ...loggedModelInfo(chosen.model) };
  metadata.checkpoint_name ??= basename(chosen.file.path);
  if (chosen.file.file_size !== undefined) metadata.size_bytes ??= chosen.file.file_size;
  metadata.mlflow = { uri: chosen.uri, other_checkpoints: parts.others.slice(0, 10).map((c) => c.uri) };
  return { ...base, checkpoint_path: chosen.uri, metadata };
}

function mergeSidecar(metadata: Record<string, unknown>, doc: PulledDocument): void {
  const name = basename(doc.path).toLowerCase();
  const v = doc.value;
  if (doc.role === "mlmodel" && isRecord(v)) {
    const flavors = isRecord(v.flavors) ? Object.keys(v.flavors) : [];
    metadata.mlflow_model = { ...(isRecord(metadata.mlflow_model) ? metadata.mlflow_model : {}), flavors, ...pick(v, ["model_uuid", "model_id", "artifact_path", "run_id", "mlflow_version"]) };
  } else if (name === "aliases.txt") {
    metadata.model_checkpoint = { ...(isRecord(metadata.model_checkpoint) ? metadata.model_checkpoint : {}), aliases: parseAliases(doc.text) };
  } else if (name === "metadata.yaml" && isRecord(v)) {
    metadata.model_checkpoint = { ...v, ...(isRecord(metadata.model_checkpoint) ? metadata.model_checkpoint : {}) };
  } else if (name === "config.json" && isRecord(v)) {
    metadata.config ??= v;
  } else if (name.endsWith(".index.json") && isRecord(v)) {
    const shards = isRecord(v.weight_map) ? new Set(Object.values(v.weight_map)).size : null;
    metadata.sharded = { total_size: isRecord(v.metadata) ? (v.metadata.total_size ?? null) : null, shards };
  } else if (isRecord(v)) {
    // `<file>.json`, checkpoint_metadata.json or model_checkpoint_artifacts.json: the writer's own metadata.
    Object.assign(metadata, isRecord(v.metadata) ? v.metadata : v);
  }
}

function loggedModelInfo(model: LoggedModel): Record<string, unknown> {
  const { info, data } = model;
  return {
    model_id: info.model_id,
    name: info.name ?? null,
    status: info.status ?? null,
    model_type: info.model_type || null,
    source_run_id: info.source_run_id ?? null,
    params: keyValues(data.params),
    metrics: Object.fromEntries(data.metrics.map((m) => [m.key, m.value])),
  };
}

function pick(v: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => v[k] !== undefined).map((k) => [k, v[k]]));
}

/** Lightning writes `str(["latest", "best"])`: the quoted words. */
export function parseAliases(text: string): string[] {
  return [...text.matchAll(/['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}
