import { ClientError } from "../errors.js";

/** What to do about each error status the service answers with (README "API", server/openapi.ts). */
const FIX: Record<number, string> = {
  400: "the request was refused as built: the field path above says what; `--dry-run` prints the body that was sent",
  404: "the service has no such route: is the client newer than the service? (`GET /openapi.json` lists its routes)",
  408: "the body took too long to arrive: check the network, or send fewer files",
  413: "the request is larger than the service accepts (SERVICE_MAX_BODY_BYTES, 64 MiB by default): analyse fewer files or raise the limit",
  415: "the service expects application/json: this is a client bug, please report it",
  500: "the analysis failed on the service; its log has the request id. With --strict any failed agent is a 500: drop --strict for a partial result",
  502: "the service's tracking server answered with an error: check SERVICE_MLFLOW_* credentials on the service",
};

function readErrorBody(body: string): { detail: string; code: string | null; requestId: string | null } {
  try {
    const json = JSON.parse(body) as { detail?: unknown; code?: unknown; request_id?: unknown };
    return {
      detail: typeof json.detail === "string" ? json.detail : body.slice(0, 500),
      code: typeof json.code === "string" ? json.code : null,
      requestId: typeof json.request_id === "string" ? json.request_id : null,
    };
  } catch {
    return { detail: body.slice(0, 500) || "(empty body)", code: null, requestId: null };
  }
}

/** What to do for an error code of the service whose cause is more precise than its status. */
const FIX_BY_CODE: Record<string, string> = {
  MLFLOW_NOT_FOUND: "check the MLflow run id or URI (--mlflow-run, --mlflow-experiment), and that the run holds the artifacts it names",
};

/** Without the service's error body (`detail`, `code`, `request_id`), the answer came from something else. */
const NOT_THE_SERVICE = "the answer does not carry the service's error body: is --server (or ML_DIAGNOSE_SERVER) pointing at the diagnosis service? It answers GET /healthz";

/** The service answered with an error that retrying will not change: its detail, its code, and what to fix. */
export function serviceError(status: number, body: string): ClientError {
  const { detail, code, requestId } = readErrorBody(body);
  const tag = [code, requestId && `request ${requestId}`].filter(Boolean).join(", ");
  const fix = (code && FIX_BY_CODE[code]) ?? (requestId === null && (status === 404 || status === 405) ? NOT_THE_SERVICE : (FIX[status] ?? "see the detail above"));
  return new ClientError("SERVICE_ERROR", `the service answered ${status}${tag ? ` (${tag})` : ""}: ${detail}\n  fix: ${fix}`);
}
