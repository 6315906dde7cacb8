import { isRecord } from "../../../artifacts/json-values.js";
import type { LoadCode } from "./scan-types.js";

/** Modules Keras itself serializes from: objects of any other module are the user's code, imported on load. */
const KERAS_MODULE = /^(keras|tf_keras|tensorflow\.keras|tensorflow\.python\.keras)(\.|$)/;
/** Objects listed one by one; a config with more is a generated one, and the first ones tell the story. */
const MAX_LISTED = 50;

function base64Bytes(code: unknown): number {
  return typeof code === "string" ? Math.floor((code.replace(/\s/g, "").length * 3) / 4) : 0;
}

/** What a Lambda's `function` holds: marshalled bytecode (`__lambda__`, or the legacy [code, defaults, closure] list), or a named function. */
function lambdaHolds(fn: unknown, functionType: unknown): string | null {
  if (isRecord(fn) && fn.class_name === "__lambda__" && isRecord(fn.config)) return `marshalled Python bytecode (${base64Bytes(fn.config.code)} bytes), run when the layer is rebuilt`;
  if (Array.isArray(fn) || (typeof fn === "string" && functionType === "lambda")) return `marshalled Python bytecode (${base64Bytes(Array.isArray(fn) ? fn[0] : fn)} bytes), run when the layer is rebuilt`;
  if (isRecord(fn) && typeof fn.config === "string") return `the function ${typeof fn.module === "string" ? `${fn.module}.` : ""}${fn.config}, imported on load`;
  if (typeof fn === "string") return `the function ${fn}, looked up on load`;
  return null;
}

/**
 * Code a Keras model config (a `.keras` archive's config.json, a legacy `.h5` file's `model_config`) makes Keras run or
 * import on load: Lambda layers (their Python bytecode is only refused by `safe_mode=True`), and objects of modules
 * outside Keras or registered under a custom package name (`registered_name` "pkg>Name"), each with the name of the
 * layer it sits in.
 */
export function kerasLoadCode(config: unknown): LoadCode[] {
  const out: LoadCode[] = [];
  const visit = (value: unknown, layer: string) => {
    if (out.length >= MAX_LISTED) return;
    if (Array.isArray(value)) {
      for (const v of value) visit(v, layer);
      return;
    }
    if (!isRecord(value)) return;
    const inner = isRecord(value.config) ? value.config : null;
    const here = typeof inner?.name === "string" && typeof value.class_name === "string" ? inner.name : layer;
    const className = typeof value.class_name === "string" ? value.class_name : null;
    if (className === "Lambda" && inner) {
      const holds = lambdaHolds(inner.function, inner.function_type);
      if (holds) out.push({ kind: "keras_lambda", where: here, name: "Lambda", detail: holds });
      return;
    } else if (className === "__lambda__") {
      out.push({ kind: "keras_lambda", where: here, name: "__lambda__", detail: lambdaHolds(value, null) ?? "marshalled Python bytecode" });
      return;
    } else if (className && typeof value.module === "string" && !KERAS_MODULE.test(value.module)) {
      // A function is serialized as {module, class_name: "function", config: its name}.
      const name = className === "function" && typeof value.config === "string" ? value.config : className;
      out.push({ kind: "keras_custom_object", where: here, name: `${value.module}.${name}`, detail: `${className === "function" ? "the function" : `a ${className} of module`} ${className === "function" ? `${value.module}.${name}` : value.module}, imported on load` });
    } else if (className && typeof value.registered_name === "string" && value.registered_name.includes(">")) {
      out.push({ kind: "keras_custom_object", where: here, name: value.registered_name, detail: `registered object ${value.registered_name}, which only its own code can rebuild` });
    }
    for (const v of Object.values(value)) visit(v, here);
  };
  visit(config, "");
  return out;
}
