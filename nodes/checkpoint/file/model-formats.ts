import type { FileHandle } from "node:fs/promises";
import { readGguf } from "./gguf.js";
import { type Hdf5Options, readHdf5 } from "./hdf5.js";
import { kerasLoadCode } from "./keras-config.js";
import { readOnnx } from "./onnx.js";
import { readSavedModel } from "./savedmodel.js";
import { readSavedModelVariables } from "./tensor-bundle.js";
import type { CheckpointFormat, FormatContents } from "./scan-types.js";

/** Formats read by a model-file reader of their own (one module per format), rather than as pickles or safetensors. */
export const MODEL_FILE_FORMATS: ReadonlySet<CheckpointFormat> = new Set(["gguf", "onnx", "savedmodel", "hdf5"]);

/** A legacy Keras `.h5` (or any HDF5 file): its datasets, and Keras' root attributes when it has them. */
async function readKerasHdf5(path: string, options: Hdf5Options): Promise<FormatContents> {
  const h5 = await readHdf5(path, options);
  const { keras_version, backend, model_config } = h5.attributes;
  const metadata: Record<string, string> = {};
  if (keras_version) metadata.keras_version = keras_version;
  if (backend) metadata.backend = backend;
  let loadCode = h5.loadCode;
  if (model_config) {
    try {
      loadCode = kerasLoadCode(JSON.parse(model_config));
    } catch {
      h5.issues.push({ kind: "unreadable", detail: "the model_config attribute is not valid JSON" });
    }
  }
  return { tensors: h5.tensors, issues: h5.issues, metadata, loadCode };
}

/** A SavedModel's graph, and the variables of the TensorBundle beside it. */
async function readSavedModelWithVariables(fh: FileHandle, fileSize: number, path: string): Promise<FormatContents> {
  const graph = await readSavedModel(fh, fileSize);
  const variables = await readSavedModelVariables(path);
  return { ...graph, tensors: variables.tensors, issues: [...graph.issues, ...variables.issues] };
}

/** Reads a file of one of MODEL_FILE_FORMATS (`format` as sniffed) into tensors placed in the file, faults, header facts and load-time code. */
export function readModelFile(format: CheckpointFormat, fh: FileHandle, fileSize: number, path: string, options: Hdf5Options): Promise<FormatContents> {
  if (format === "gguf") return readGguf(fh, fileSize);
  if (format === "onnx") return readOnnx(fh, fileSize, path);
  if (format === "savedmodel") return readSavedModelWithVariables(fh, fileSize, path);
  return readKerasHdf5(path, options);
}
