import { startsLikeMessage } from "./proto-wire.js";

/** ModelProto's top-level fields (onnx.proto3) → wire type: ir_version, producer, domain, graph, opset_import… */
const MODEL_PROTO = new Map([[1, 0], [2, 2], [3, 2], [4, 2], [5, 0], [6, 2], [7, 2], [8, 2], [14, 2], [20, 2], [25, 2]]);
/** SavedModel (saved_model.proto): saved_model_schema_version = 1, then meta_graphs. */
const SAVED_MODEL = new Map([[1, 0], [2, 2]]);
/** IR versions ONNX has defined (1 … 11 in 2025) with room for a few more. */
const MAX_IR_VERSION = 20;

/**
 * An ONNX ModelProto or a TensorFlow SavedModel by structure: both start with a small varint in field 1 (ir_version,
 * saved_model_schema_version). A SavedModel's is 1 and its field 2 is a MetaGraphDef, whose own first field is
 * meta_info_def (0x0a); an ONNX model's field 2 is the producer's name, or it goes on with other ModelProto fields.
 */
export function looksLikeOnnx(head: Uint8Array, fileSize: number): "onnx" | "savedmodel" | null {
  if (head[0] !== 0x08 || head[1] === undefined || head[1] < 1 || head[1] > MAX_IR_VERSION) return null;
  if (head[1] === 1 && head[2] === 0x12 && startsLikeMessage(head, fileSize, SAVED_MODEL, 2)) {
    // Skip the length varint of meta_graphs to its first byte.
    let p = 3;
    while (p < head.length && (head[p]! & 0x80) !== 0) p++;
    if (head[p + 1] === 0x0a) return "savedmodel";
  }
  return startsLikeMessage(head, fileSize, MODEL_PROTO, 2) ? "onnx" : null;
}
