import type { Finding } from "../../../domain/result.js";
import { detectorFinding } from "../../findings.js";
import type { CheckpointInfo } from "../table.js";

/** Formats whose header facts are reported: the model files read by their own readers. */
const REPORTED = new Set(["keras", "hdf5", "onnx", "gguf", "savedmodel"]);

/**
 * A model file that carries its own architecture: a Keras archive (config.json) or full legacy .h5 (model_config),
 * an ONNX or SavedModel graph, a GGUF header naming its architecture. A bare `.weights.h5` does not.
 */
export function describesItself(info: CheckpointInfo): boolean {
  const f = info.fileFacts;
  if (info.format === "keras" || info.format === "onnx" || info.format === "savedmodel") return true;
  return (info.format === "hdf5" && f.keras_version !== undefined) || (info.format === "gguf" && f["general.architecture"] !== undefined);
}

/** What the header says, as one sentence per format. */
function describe(format: string, f: Record<string, string>): string {
  if (format === "onnx") return `ONNX IR version ${f["onnx.ir_version"] ?? "?"}, opsets ${f["onnx.opset"] ?? "none declared"}${f["onnx.producer"] ? `, written by ${f["onnx.producer"]} ${f["onnx.producer_version"] ?? ""}`.trimEnd() : ""}.`;
  if (format === "gguf") {
    const arch = f["general.architecture"];
    const context = arch ? f[`${arch}.context_length`] : undefined;
    return `GGUF version ${f["gguf.version"] ?? "?"}, architecture ${arch ?? "?"}${f["general.name"] ? ` (${f["general.name"]})` : ""}${context ? `, context length ${context}` : ""}, file type ${f["general.file_type"] ?? "?"}; tensor types ${f["gguf.tensor_types"] ?? "?"} (the values of quantized tensors are not read).`;
  }
  if (format === "savedmodel") return `SavedModel written by TensorFlow ${f.tensorflow_version ?? "?"}.`;
  return f.keras_version ? `Keras ${f.keras_version}${f.backend ? ` with the ${f.backend} backend` : ""}.` : "An HDF5 file without Keras version attributes.";
}

/** Versions and header facts of a Keras, ONNX, GGUF or SavedModel file: what wrote it and what was not read. */
export function detectModelFormat(info: CheckpointInfo): Finding[] {
  if (typeof info.format !== "string" || !REPORTED.has(info.format)) return [];
  const text = describe(info.format, info.fileFacts);
  return [detectorFinding({
    id: "checkpoint.model_format",
    title: "Model file format and versions",
    description: text,
    evidence: [{ rule_id: "CK-10", artifact: "model_checkpoint_artifacts.checkpoint_path", text, observed: info.format }],
    severity: "info",
    confidence: 0.95,
    recommendation: null,
  })];
}
