import { isRecord } from "../../json-values.js";
import { type DatasetInput, keyValues } from "../schemas.js";
import type { SniffedDocument } from "./sniffed.js";

const CONTEXT_TAG = "mlflow.data.context";
/** Split roles, the training set first: it is the one the statistics describe. */
const CONTEXT_RANK = ["training", "train", "train_dataset"];

/**
 * Builds `dataset_artifacts` from a statistics file (`{metadata, statistics}`, bare statistics, the legacy
 * client's `dataset.yaml`, or a `dataset_artifacts.json` payload) and the run's logged dataset inputs. The
 * training input is the statistics when no file gives any, and `statistics.mlflow_dataset` otherwise.
 */
export function buildDataset(docs: readonly SniffedDocument[], inputs: readonly DatasetInput[]): Record<string, unknown> | null {
  const mine = docs.filter((d) => d.sniffed.kind === "dataset");
  const fileBase = pickBase(mine);
  if (!fileBase && inputs.length === 0) return null;
  const out: Record<string, unknown> = { ...(fileBase ?? {}) };
  const metadata: Record<string, unknown> = isRecord(out.metadata) ? { ...out.metadata } : {};
  const primary = primaryInput(inputs);
  if (primary) {
    const dataset = datasetRecord(primary);
    const statistics = isRecord(out.statistics) ? { ...out.statistics } : null;
    if (!statistics) out.statistics = dataset;
    else out.statistics = statistics.mlflow_dataset === undefined ? { ...statistics, mlflow_dataset: dataset } : statistics;
    const context = keyValues(primary.tags)[CONTEXT_TAG];
    if (context && metadata[CONTEXT_TAG] === undefined) metadata[CONTEXT_TAG] = context;
    if (inputs.length > 1) metadata.mlflow_datasets = inputs.map((i) => ({ ...datasetRecord(i), context: keyValues(i.tags)[CONTEXT_TAG] ?? null }));
  }
  if (Object.keys(metadata).length > 0) out.metadata = metadata;
  return out;
}

/** The first file that is a whole payload, else statistics wrapped as one. */
function pickBase(docs: readonly SniffedDocument[]): Record<string, unknown> | null {
  const payload = docs.find((d) => d.sniffed.as === "payload");
  if (payload && isRecord(payload.doc.value)) return payload.doc.value;
  const stats = docs.find((d) => d.sniffed.as === "statistics" || d.sniffed.as === "mlflow_dataset");
  return stats ? { statistics: stats.doc.value } : null;
}

function primaryInput(inputs: readonly DatasetInput[]): DatasetInput | undefined {
  const rank = (i: DatasetInput) => {
    const r = CONTEXT_RANK.indexOf((keyValues(i.tags)[CONTEXT_TAG] ?? "").toLowerCase());
    return r < 0 ? CONTEXT_RANK.length : r;
  };
  return [...inputs].sort((a, b) => rank(a) - rank(b))[0];
}

/** The logged dataset in the shape of ARTIFACTS.md (schema and profile stay JSON strings). */
function datasetRecord(input: DatasetInput): Record<string, unknown> {
  const { name, digest, source_type, source, schema, profile } = input.dataset;
  return { name, digest, source_type, source, ...(schema !== undefined ? { schema } : {}), ...(profile !== undefined ? { profile } : {}) };
}
