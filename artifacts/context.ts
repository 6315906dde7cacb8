import type { Language } from "./language.js";
import type { MlflowReference } from "./mlflow/reference.js";

/** The four artifact groups of the spec, each with its analyzer. */
export const ARTIFACT_KINDS = ["dataset", "checks", "training", "checkpoint"] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

export const REQUEST_FIELD_BY_KIND: Record<ArtifactKind, string> = {
  dataset: "dataset_artifacts",
  checks: "checks_artifacts",
  training: "training_artifacts",
  checkpoint: "model_checkpoint_artifacts",
};

/** One artifact group, as sent inline or pulled from the tracking server. */
export interface ArtifactInput {
  kind: ArtifactKind;
  /** Request field it came from (for messages and evidence paths). */
  field: string;
  payload: Record<string, unknown>;
  origin: "inline" | "mlflow";
}

/** What the graph analyzes: the decoded request, normalized (spec §1 "analysis context"). */
export interface AnalysisContext {
  requestId: string;
  datasetName: string | null;
  language: Language;
  modelName: string | null;
  strict: boolean;
  trace: boolean;
  mlflow: MlflowReference | null;
  artifacts: ArtifactInput[];
}
