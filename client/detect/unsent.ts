import { basename } from "node:path";
import type { FoundFile } from "./walk.js";

/** Model files the service does not read, by their names: listed as not sent, never dropped without a word. */
const MODEL_FILES: ReadonlyArray<[RegExp, string]> = [
  [/\.keras$/i, "a Keras model file (.keras): not read by ml-diagnose; its training history is what the service analyses"],
  [/\.(h5|hdf5)$/i, "an HDF5 model file: not read by ml-diagnose; its training history is what the service analyses"],
  [/\.(onnx|tflite|pb|mlmodel|cbm|ubj)$/i, "a model file in a format ml-diagnose does not read"],
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
