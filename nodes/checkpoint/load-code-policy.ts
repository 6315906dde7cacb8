import type { Severity } from "../../domain/result.js";
import { classifyGlobal } from "./file/pickle-policy.js";
import type { LoadCode } from "./file/scan-types.js";

/**
 * How much a model file's load-time code is trusted, in one place (ARCHITECTURE.md wave 3, "trust is a policy"):
 * - a Keras Lambda's bytecode runs on load as soon as `safe_mode` is off, and modelscan calls it unsafe → critical;
 * - TensorFlow ops that read or write files or call back into Python (modelscan's ReadFile/WriteFile, the py_func
 *   family) → critical; other file-reaching ops (MatchingFiles, Save/Restore outside the saver) → high;
 * - a Keras object naming a module and name that the pickle policy calls dangerous (os.system, builtins.exec…: the
 *   CVE-2025-1550 pattern) → critical;
 * - other objects of modules outside Keras, and ONNX operators of custom domains, need code that is not in the file: what
 *   runs is whatever the loading machine has under that name → medium.
 */
const CRITICAL_TF_OPS = new Set(["ReadFile", "WriteFile", "PyFunc", "PyFuncStateless", "EagerPyFunc"]);

export function gradeLoadCode(code: LoadCode): Severity {
  if (code.kind === "keras_lambda") return "critical";
  if (code.kind === "tf_op") return CRITICAL_TF_OPS.has(code.name) ? "critical" : "high";
  if (code.kind === "keras_custom_object") {
    // `name` is module.ClassName as the config records it.
    const dot = code.name.lastIndexOf(".");
    if (dot > 0 && classifyGlobal(code.name.slice(0, dot), code.name.slice(dot + 1)).safety === "dangerous") return "critical";
  }
  return "medium";
}
