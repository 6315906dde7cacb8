import { basename } from "node:path";
import type { FoundFile } from "./walk.js";

/**
 * Model files of formats the scan does not read, by their names: listed as not sent, never dropped without a word.
 * Keras, HDF5, ONNX and SavedModel files are read by content (nodes/checkpoint/file/sniff.ts); one that lands here
 * did not look like its format, and the classifier's reason says so.
 */
const MODEL_FILES: ReadonlyArray<[RegExp, string]> = [
  [/\.(tflite|mlmodel|cbm|ubj)$/i, "a model file in a format ml-diagnose does not read (TFLite, Core ML, CatBoost or XGBoost's own)"],
];

/** Files known by name whose content the request has no field for. */
const KNOWN_FILES: Record<string, string> = {
  "meta.yaml": "MLflow metadata of the experiment or of another record, not of a run",
  "readme.md": "documentation, not an artifact",
};

/** Why a file found beside the run is not sent: the classifier's reason, said plainly for known model files. */
export function notSentReason(file: FoundFile, reason: string): string {
  const name = basename(file.path);
  return MODEL_FILES.find(([pattern]) => pattern.test(name))?.[1] ?? KNOWN_FILES[name.toLowerCase()] ?? reason;
}
