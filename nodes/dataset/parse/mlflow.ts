import type { ColumnStats, MlflowDatasetInfo } from "../model.js";
import { decodeJsonString, isRecord, type JsonRecord, toFinite, toText } from "../../../artifacts/json-values.js";
import { readColumn } from "./columns.js";

/** Whether an object looks like an MLflow logged dataset `{name, digest, source_type, source, schema, profile}`. */
export function isMlflowDataset(v: unknown): v is JsonRecord {
  if (!isRecord(v)) return false;
  const d = isRecord(v.dataset) ? v.dataset : v;
  return typeof d.digest === "string" && (d.schema !== undefined || d.profile !== undefined || d.source_type !== undefined);
}

/** The split role from the `mlflow.data.context` input tag, when the dataset input carries its tags. */
function contextTag(v: JsonRecord): string | null {
  if (!Array.isArray(v.tags)) return null;
  const tag = v.tags.find((t) => isRecord(t) && t.key === "mlflow.data.context");
  return isRecord(tag) ? toText(tag.value) : null;
}

export interface MlflowDatasetRead {
  info: MlflowDatasetInfo;
  columns: ColumnStats[];
}

/**
 * Reads an MLflow dataset entity, or a dataset input `{dataset, tags}`; `schema`, `profile` and `source` are
 * JSON documents inside strings (FORMATS.md §1.4) and are decoded a second time.
 */
export function readMlflowDataset(value: JsonRecord, path: string, metadataContext: string | null): MlflowDatasetRead {
  const d = isRecord(value.dataset) ? value.dataset : value;
  const schema = decodeJsonString(d.schema);
  const profile = decodeJsonString(d.profile);
  const source = decodeJsonString(d.source);
  const numRows = isRecord(profile) ? toFinite(profile.num_rows) : null;
  const colspec = isRecord(schema) && Array.isArray(schema.mlflow_colspec) ? schema.mlflow_colspec : [];
  const columns = colspec.flatMap((c, i) => {
    const name = isRecord(c) ? toText(c.name) : null;
    return isRecord(c) && name ? [readColumn(name, c, `${path}.schema.mlflow_colspec[${i}]`, numRows)] : [];
  });
  const sourceText = isRecord(source) ? toText(source.uri) ?? toText(source.url) ?? toText(source.path) : toText(source);
  return {
    info: {
      name: toText(d.name),
      digest: toText(d.digest),
      sourceType: toText(d.source_type),
      source: sourceText,
      numRows,
      context: contextTag(value) ?? metadataContext,
    },
    columns,
  };
}
