import type { DType } from "./dtypes.js";
import type { LightningState } from "./lightning.js";
import type { PickleReport } from "./pickle-scan.js";
import type { TensorStats } from "./tensor-stats.js";

/** Formats recognized by content (FORMATS.md §6). */
export type CheckpointFormat =
  | "safetensors" | "torch_zip" | "torch_legacy" | "pickle" | "zip" | "npy" | "gguf"
  /** HDF5 (legacy Keras `.h5`, `.weights.h5`), a Keras v3 `.keras` archive, an ONNX model, a SavedModel's saved_model.pb. */
  | "hdf5" | "keras" | "onnx" | "savedmodel"
  /** A container the scan cannot open (7z, gzip, xz, bzip2, zstd, rar). */
  | "archive"
  | "unknown";

/** Content the safety scan could not look into (an encrypted or 7z-compressed entry, an oversized pickle…). */
export interface UnverifiedContent {
  /** The file or archive entry. */
  entry: string;
  /** Why it could not be checked, as a clause: "it is encrypted (password-protected zip)". */
  reason: string;
}

/** Where a tensor sits in a training checkpoint: model weights and buffers, optimizer state, or other state. */
export type TensorGroup = "model" | "optimizer" | "other";

/**
 * A file that holds training state, not a model: an optimizer's state_dict() (HF `optimizer.pt`), an LR
 * scheduler's (`scheduler.pt`), an RNG snapshot (`rng_state.pth`) or the Trainer's pickled TrainingArguments
 * (`training_args.bin`).
 */
export type TrainingState = "optimizer" | "scheduler" | "rng_state" | "training_args";

/** What one file of a checkpoint folder turned out to be ("copy": another full copy of weights already read). */
export type FolderFileRole = "weights" | "copy" | TrainingState | "config" | "index" | "trainer_state" | "other";

/** A checkpoint folder as read: every file and what it is, and what the files beside the weights said. */
export interface FolderSummary {
  files: Array<{ relative: string; size: number; format: CheckpointFormat | null; role: FolderFileRole }>;
  /** config.json (as `config`), trainer_state.json facts and the weights' dtype, as request metadata carries them. */
  metadata: Record<string, unknown>;
}

/** One tensor found in the file. */
export interface ScannedTensor {
  /** Dotted path; state-dict keys for model tensors. */
  name: string;
  /** null when the storage type is not one we know (`rawDtype` says what it was). */
  dtype: DType | null;
  rawDtype: string;
  shape: number[];
  numel: number;
  /** Absolute [start, end) of its contiguous bytes in the file, or null when not readable in place. */
  byteRange: [number, number] | null;
  stats: TensorStats | null;
  group: TensorGroup;
  /** Storage identity for tied weights (zip storage key + offset), when known. */
  storage?: string;
  requiresGrad?: boolean | null;
  /** The file holding the bytes when it is not the scanned one (ONNX external data), resolved inside the model's folder. */
  file?: string;
}

/**
 * Code a model file runs or needs when it is loaded, as the file records it (Keras Lambda layers and custom objects,
 * SavedModel operations that reach files or processes, ONNX operators of custom domains). Graded by
 * nodes/checkpoint/load-code-policy.ts, not here.
 */
export interface LoadCode {
  kind: "keras_lambda" | "keras_custom_object" | "tf_op" | "onnx_custom_domain";
  /** Where it sits: the layer's name, the node's name, the archive entry. */
  where: string;
  /** What it is: the layer class, the op type, `domain:op_type`, the registered name. */
  name: string;
  /** What it holds, briefly: "marshalled Python bytecode (412 bytes)", "module my_pkg.layers". */
  detail: string;
}

/** What a model-file reader (GGUF, ONNX, Keras, SavedModel) found: tensors placed in the file, faults, header facts, code run on load. */
export interface FormatContents {
  tensors: ScannedTensor[];
  issues: IntegrityIssue[];
  /** Versions and header facts, as text (`keras_version`, `onnx.opset`, `general.architecture`…). */
  metadata: Record<string, string>;
  loadCode: LoadCode[];
}

/** A structural fault of the file. */
export interface IntegrityIssue {
  kind: "truncated" | "hole" | "overlap" | "trailing" | "size_mismatch" | "bad_header" | "missing_storage" | "unreadable";
  detail: string;
  expectedBytes?: number;
  actualBytes?: number;
}

/** Everything a scan learned from the file, without executing any of it. */
export interface CheckpointScan {
  path: string;
  format: CheckpointFormat;
  fileSize: number;
  /** Tensor data was not read (file above the byte budget); tiny tensors are still read. */
  headerOnly: boolean;
  tensors: ScannedTensor[];
  pickles: PickleReport[];
  /** Parts whose pickles, if any, could not be checked: loading them is not known to be safe. */
  unverified: UnverifiedContent[];
  issues: IntegrityIssue[];
  /** safetensors `__metadata__`; the versions and header facts of Keras, ONNX and GGUF files (keras_version, opset…). */
  fileMetadata: Record<string, string>;
  /** Code the file runs or needs on load (Keras, SavedModel, ONNX); pickles are in `pickles`. */
  loadCode: LoadCode[];
  /** Top-level keys of a pickled dict (Lightning and training checkpoints). */
  topLevelKeys: string[];
  lightning: LightningState | null;
  /** The training state the file holds instead of weights, or null for weights and full checkpoints. */
  trainingState: TrainingState | null;
  /** Set when the checkpoint is a folder: `path` is the folder and the other fields merge its files. */
  folder: FolderSummary | null;
  /** Tensor data bytes read. */
  bytesScanned: number;
}
