import { writeFile, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ClientError } from "../errors.js";

/** Folder of the run's artifacts the client writes into. */
export const DIAGNOSIS_FOLDER = "diagnosis";

/** One file to log as an artifact of the run, under diagnosis/. */
export interface RecordedFile {
  name: string;
  content: string;
  contentType: string;
}

/** Where and how to reach the tracking server, as MLflow's own clients read it (MLFLOW_TRACKING_*). */
export interface TrackingServer {
  uri: string;
  token: string | null;
  username: string | null;
  password: string | null;
  timeoutMs: number;
}

/** The tracking server from MLflow's variables; only an http(s) server has the REST API this uses. */
export function trackingServerFrom(env: Record<string, string | undefined>, timeoutMs = 30_000): TrackingServer {
  const uri = env.MLFLOW_TRACKING_URI?.replace(/\/+$/, "");
  if (!uri || !/^https?:\/\//.test(uri)) {
    throw new ClientError("USAGE", `--record-to-mlflow needs MLFLOW_TRACKING_URI set to the tracking server's http(s) address${uri ? `, got '${uri}'` : ""}`);
  }
  return { uri, token: env.MLFLOW_TRACKING_TOKEN ?? null, username: env.MLFLOW_TRACKING_USERNAME ?? null, password: env.MLFLOW_TRACKING_PASSWORD ?? null, timeoutMs };
}

function headers(server: TrackingServer, extra: Record<string, string> = {}): Record<string, string> {
  const auth: Record<string, string> = {};
  if (server.token) auth.authorization = `Bearer ${server.token}`;
  else if (server.username !== null) auth.authorization = `Basic ${Buffer.from(`${server.username}:${server.password ?? ""}`).toString("base64")}`;
  return { ...auth, ...extra };
}

/** One REST call; a connection failure is UNREACHABLE, an error answer SERVICE_ERROR with MLflow's own message. */
async function call(server: TrackingServer, method: string, path: string, body: string | undefined, contentType: string): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(`${server.uri}${path}`, { method, headers: headers(server, body !== undefined ? { "content-type": contentType } : {}), body, signal: AbortSignal.timeout(server.timeoutMs) });
  } catch (err) {
    throw new ClientError("UNREACHABLE", `MLflow at ${server.uri} did not answer ${method} ${path.split("?")[0]}: ${(err as Error).message}`);
  }
  const text = await res.text();
  if (!res.ok) {
    let detail = text.slice(0, 300);
    try {
      detail = String((JSON.parse(text) as { message?: unknown }).message ?? detail);
    } catch {
      // not JSON: keep the text
    }
    throw new ClientError("SERVICE_ERROR", `MLflow at ${server.uri} refused ${method} ${path.split("?")[0]} (${res.status}): ${detail}`);
  }
  return text ? JSON.parse(text) : {};
}

/**
 * Where a run's artifacts go: through the tracking server's artifact proxy for `mlflow-artifacts:` URIs (the
 * default of `mlflow server` since 2.0), or straight to a local folder for `file:` URIs. Other stores (s3, gs…)
 * need their own credentials, which this client does not hold.
 */
function artifactWriter(server: TrackingServer, artifactUri: string): (file: RecordedFile) => Promise<void> {
  const proxied = /^mlflow-artifacts:(?:\/\/[^/]*)?\/(.*)$/.exec(artifactUri);
  if (proxied) {
    const base = proxied[1]!.replace(/\/+$/, "");
    return async (file) => {
      const path = [base, DIAGNOSIS_FOLDER, file.name].map((p) => p.split("/").map(encodeURIComponent).join("/")).join("/");
      await call(server, "PUT", `/api/2.0/mlflow-artifacts/artifacts/${path}`, file.content, file.contentType);
    };
  }
  if (artifactUri.startsWith("file:") || artifactUri.startsWith("/")) {
    const root = artifactUri.startsWith("file:") ? fileURLToPath(artifactUri) : artifactUri;
    return async (file) => {
      const target = join(root, DIAGNOSIS_FOLDER, file.name);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, file.content);
    };
  }
  throw new ClientError("USAGE", `the run's artifacts live in ${artifactUri.split(":")[0]}: storage this client cannot write to; start the tracking server with --serve-artifacts (mlflow-artifacts:) to record through it`);
}

/**
 * Logs files as artifacts of a run under diagnosis/ and then sets tags on it, through MLflow's REST API (2.x and
 * 3.x answer the same calls). Tags come last, so a run tagged with a diagnosis has all of its files.
 */
export async function recordToMlflow(server: TrackingServer, runId: string, files: readonly RecordedFile[], tags: Record<string, string>): Promise<{ artifactUri: string }> {
  const got = (await call(server, "GET", `/api/2.0/mlflow/runs/get?run_id=${encodeURIComponent(runId)}`, undefined, "")) as { run?: { info?: { artifact_uri?: unknown } } };
  const artifactUri = got.run?.info?.artifact_uri;
  if (typeof artifactUri !== "string") throw new ClientError("SERVICE_ERROR", `MLflow at ${server.uri} returned run ${runId} without an artifact_uri`);
  const write = artifactWriter(server, artifactUri);
  for (const file of files) await write(file);
  for (const [key, value] of Object.entries(tags)) {
    await call(server, "POST", "/api/2.0/mlflow/runs/set-tag", JSON.stringify({ run_id: runId, key, value }), "application/json");
  }
  return { artifactUri };
}
