import type { Severity } from "../../domain/result.js";
import type { LoadCode } from "./file/scan-types.js";

/**
 * How much a model file's load-time code is trusted, in one place (ARCHITECTURE.md wave 3, "trust is a policy"):
 * - a Keras Lambda's bytecode runs on load as soon as `safe_mode` is off, and modelscan calls it unsafe → critical;
 * - TensorFlow ops that read or write files or call back into Python (modelscan's ReadFile/WriteFile, the py_func
 *   family) → critical; other file-reaching ops (MatchingFiles, Save/Restore outside the saver) → high;
 * - objects of modules outside Keras, and ONNX operators of custom domains, need code that is not in the file: what
 *   runs is whatever the loading machine has under that name → medium.
 */
const CRITICAL_TF_OPS = new Set(["ReadFile", "WriteFile", "PyFunc", "PyFuncStateless", "EagerPyFunc"]);

export function gradeLoadCode(code: LoadCode): Severity {
  if (code.kind === "keras_lambda") return "critical";
  if (code.kind === "tf_op") return CRITICAL_TF_OPS.has(code.name) ? "critical" : "high";
  return "medium";
}
