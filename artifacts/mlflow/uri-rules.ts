/** The URI schemes a request may use to name something on the tracking server (docs/mlflow.md). */
export const MLFLOW_SCHEMES = ["runs", "models", "mlflow-artifacts"] as const;
export type MlflowScheme = (typeof MLFLOW_SCHEMES)[number];

/** The rule an MLflow URI from a request broke; part of the 400 answer. */
export type MlflowUriRule = "CONTROL_CHARACTER" | "BACKSLASH" | "ENCODED_CHARACTER" | "UNSUPPORTED_SCHEME" | "ABSOLUTE_PATH" | "DOT_DOT_SEGMENT";

export interface MlflowUriProblem {
  rule: MlflowUriRule;
  detail: string;
}

/**
 * Percent-encoded `.`, `/`, `\`, `%` and NUL. An artifact path is plain text that this service encodes itself
 * (artifacts/mlflow/endpoint.ts); an encoded dot or separator in it only serves to slip `..` or a separator past
 * a check and have a server or proxy decode it later, and `%25` is the double-encoded form of each of them.
 */
const ENCODED = /%(2e|2f|5c|25|00)/i;
const CONTROL = /[\u0000-\u001f\u007f]/;
/** `runs:/<id>/<path>`, `models:/<name>/<version or rest>`, `mlflow-artifacts:/<path>`. */
const SHAPE = /^(runs|models|mlflow-artifacts):\/(.*)$/s;
/** `mlflow-artifacts://<authority>/<path>`: the authority is ignored (downloads go to the configured server). */
const AUTHORITY = /^\/[^/]*\/?/;

/**
 * Checks an MLflow URI a request carries (`mlflow.run_uri`, an MLflow `checkpoint_path`) before anything is asked
 * of the tracking server: one of `schemes`, and an artifact path with no control character, backslash, encoded
 * dot or separator (single or double), leading `/` or drive letter, or `..` segment. Returns the first rule
 * broken, or null. The run id, model name and version are path segments like the others here.
 */
export function mlflowUriProblem(uri: string, schemes: readonly MlflowScheme[] = MLFLOW_SCHEMES): MlflowUriProblem | null {
  if (CONTROL.test(uri)) return { rule: "CONTROL_CHARACTER", detail: "the URI contains a control character (NUL, newline, …)" };
  if (uri.includes("\\")) return { rule: "BACKSLASH", detail: "backslashes are not path separators in an MLflow URI; use `/`" };
  const encoded = ENCODED.exec(uri);
  if (encoded) {
    return {
      rule: "ENCODED_CHARACTER",
      detail: `percent-encoded '.', '/', '\\', '%' or NUL (${encoded[0]}) is not accepted in an artifact path; write the path as it is, the service encodes it`,
    };
  }
  const shape = SHAPE.exec(uri);
  if (!shape || !schemes.includes(shape[1] as MlflowScheme)) {
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(uri)?.[1] ?? "(none)";
    return { rule: "UNSUPPORTED_SCHEME", detail: `expected a ${schemes.map((s) => `${s}:/`).join(", ")} URI, not ${scheme === "(none)" ? "a plain path" : `${scheme}:`}` };
  }
  const rest = shape[1] === "mlflow-artifacts" ? (shape[2] ?? "").replace(AUTHORITY, "") : (shape[2] ?? "");
  const segments = rest.replace(/\/+$/, "").split("/");
  if (rest.startsWith("/") || segments.some((s, i) => (s === "" && i > 0) || /^[A-Za-z]:$/.test(s))) {
    return {
      rule: "ABSOLUTE_PATH",
      detail: "an artifact path is relative to the run's artifact root: no leading or doubled `/`, no drive letter",
    };
  }
  if (segments.includes("..")) return { rule: "DOT_DOT_SEGMENT", detail: "`..` segments are not allowed in an artifact path" };
  return null;
}
