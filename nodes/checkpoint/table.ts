import type { DType } from "./file/dtypes.js";
import type { LightningState } from "./file/lightning.js";
import type { PickleReport } from "./file/pickle-scan.js";
import type { CheckpointFormat, FolderSummary, IntegrityIssue, LoadCode, TensorGroup, TrainingState, UnverifiedContent } from "./file/scan-types.js";

/** Per-tensor statistics as the detectors see them, whether measured here or computed by the client. */
export interface TensorValues {
  nanCount: number;
  infCount: number;
  /** Fraction of exact zeros; null when the client did not report it. */
  zeroFraction: number | null;
  min: number | null;
  max: number | null;
  mean: number | null;
  std: number | null;
  maxAbs: number | null;
  /** Output units and those with ~zero weights (measured files only). */
  units: number | null;
  deadUnits: number | null;
  /**
   * Client statistics that were NaN or ±Infinity (torch reports NaN mean/std/min/max for a tensor holding NaN),
   * by their request key. They are kept out of min…maxAbs, which, as for scanned files, describe finite values only.
   * Null for scanned files.
   */
  nonfiniteStats?: Partial<Record<SummaryStat, number>> | null;
}

/** The client summary statistics of a per_tensor row (ARTIFACTS.md). */
export const SUMMARY_STATS = ["mean", "std", "min", "max", "max_abs"] as const;
export type SummaryStat = (typeof SUMMARY_STATS)[number];

/** Summaries that only non-finite elements can make non-finite (std is left out: torch's std of one element is NaN). */
const TELLING_STATS: readonly SummaryStat[] = ["mean", "min", "max", "max_abs"];

/** NaN plus ±Inf elements counted in a tensor (0 when not counted). */
export const nonfiniteCount = (t: TensorRecord): number => (t.values?.nanCount ?? 0) + (t.values?.infCount ?? 0);

/** True when a tensor holds NaN or ±Inf: counted, or told by a non-finite mean/min/max/max_abs from the client. */
export function hasNonfiniteValues(t: TensorRecord): boolean {
  if (nonfiniteCount(t) > 0) return true;
  const stats = t.values?.nonfiniteStats;
  return !!stats && TELLING_STATS.some((k) => stats[k] !== undefined);
}

/** One row of the normalized tensor table: one code path for scanned files and client-computed statistics. */
export interface TensorRecord {
  name: string;
  dtype: DType | null;
  /** The dtype as written (storage class, safetensors or client name). */
  rawDtype: string;
  shape: number[] | null;
  numel: number | null;
  group: TensorGroup;
  /** Identity of the bytes (tied weights share it); null when unknown. */
  storage: string | null;
  /**
   * What the file records of the tensor's requires_grad, only where it tells trained from fixed tensors: null when
   * not recorded, or when no tensor of the checkpoint requires grad (an EMA copy or a frozen export).
   */
  requiresGrad: boolean | null;
  values: TensorValues | null;
}

/** How the checkpoint was read, for analyzed_artifacts and for findings that depend on it. */
export type ReadMode = "scanned" | "header_only" | "metadata_only";

/** Everything the checkpoint detectors work on. */
export interface CheckpointInfo {
  /** checkpoint_path as given in the request. */
  path: string | null;
  /** Why no file was read, when none was (refused, MLflow URI not downloaded, no path). */
  fileNote: string | null;
  mode: ReadMode;
  format: CheckpointFormat | string | null;
  /** The files of a checkpoint folder and their roles, when checkpoint_path named a folder. */
  folder: FolderSummary | null;
  /** The file holds training state (optimizer, scheduler, RNG, TrainingArguments), not a model; null otherwise. */
  trainingState: TrainingState | null;
  metadata: Record<string, unknown>;
  tensors: TensorRecord[];
  /** True when `tensors` lists every tensor of the checkpoint (a scanned file, or per_tensor covering num_tensors). */
  tensorsComplete: boolean;
  /** Aggregate non-finite counts (file totals, or the client's tensor_stats totals). */
  nanCount: number;
  infCount: number;
  tensorsWithNonfinite: number;
  /** dtype name → tensor count. */
  dtypes: Record<string, number>;
  /** Model configuration from metadata (config / hyper_parameters) or the file (Lightning hyper_parameters). */
  config: Record<string, unknown> | null;
  lightning: LightningState | null;
  /** Resolved values of Lightning's best scores (the file stores them as 0-d tensors). */
  bestModelScore: number | null;
  declaredParameters: number | null;
  /** File size, or the client's size_bytes. */
  sizeBytes: number | null;
  pickles: PickleReport[];
  /** Parts of the file the safety scan could not look into. */
  unverified: UnverifiedContent[];
  issues: IntegrityIssue[];
  /** Code a Keras, SavedModel or ONNX file runs or needs on load. */
  loadCode: LoadCode[];
  /** Header facts of Keras, ONNX, GGUF and SavedModel files: versions, opsets, quantization (scan `fileMetadata`). */
  fileFacts: Record<string, string>;
  /** Byte budget above which files are scanned header-only (SERVICE_MAX_CHECKPOINT_BYTES). */
  maxScanBytes: number | null;
  /** Whether the checkpoint carries optimizer state: true/false when known, null when it cannot be told. */
  hasOptimizerState: boolean | null;
}
