/** One piece of a request that a file (or folder) supplies, with where it came from for the source listing. */
export type Contribution =
  | { kind: "training_metrics"; source: string; label: string; metrics: unknown }
  | { kind: "training_params"; source: string; label: string; params: Record<string, unknown> }
  | { kind: "training_metadata"; source: string; label: string; metadata: Record<string, unknown> }
  | { kind: "check_report"; source: string; label: string; report: unknown }
  | { kind: "checkpoint"; source: string; label: string; artifact: Record<string, unknown> }
  | { kind: "dataset"; source: string; label: string; artifact: Record<string, unknown> };

/** A file that was not used, and why. `problem` ones (unreadable, unrecognized) stop the run under --strict. */
export interface Skipped {
  source: string;
  reason: string;
  problem: boolean;
}

/** What a set of paths yielded. */
export interface Detected {
  contributions: Contribution[];
  skipped: Skipped[];
}

/** The request field each contribution fills, for the "file → artifact" listing. */
export const FIELD_OF: Record<Contribution["kind"], string> = {
  training_metrics: "training_artifacts.metrics",
  training_params: "training_artifacts.params",
  training_metadata: "training_artifacts.metadata",
  check_report: "checks_artifacts.reports",
  checkpoint: "model_checkpoint_artifacts",
  dataset: "dataset_artifacts",
};
