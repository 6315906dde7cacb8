import { ByteBudget } from "../../../artifacts/mlflow/budget.js";
import { MlflowClient } from "../../../artifacts/mlflow/client.js";
import { trackingEndpoint } from "../../../artifacts/mlflow/endpoint.js";
import { MlflowTransport, type TransportOptions } from "../../../artifacts/mlflow/transport.js";
import { Deadline } from "../../../graph/deadline.js";

/** One request the fake server saw. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: any;
  headers: Headers;
}

/** A route answers a request with a Response, or throws to simulate a connection error. */
export type Route = (req: SeenRequest) => Response | Promise<Response>;

export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
export const bytes = (data: Uint8Array | string) => new Response(typeof data === "string" ? data : Buffer.from(data), { status: 200 });

/** A fetch that dispatches on the URL path to `routes` (exact path match) and records every request. */
export function fakeFetch(routes: Record<string, Route>) {
  const seen: SeenRequest[] = [];
  const impl = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    if (init?.signal?.aborted) throw init.signal.reason;
    const req: SeenRequest = {
      method: init?.method ?? "GET",
      path: url.pathname,
      query: url.searchParams,
      body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined,
      headers: new Headers(init?.headers),
    };
    seen.push(req);
    const route = routes[url.pathname];
    if (!route) return json({ error_code: "ENDPOINT_NOT_FOUND", message: `no fake route ${url.pathname}` }, 404);
    return route(req);
  }) as typeof fetch;
  return { fetch: impl, seen };
}

export const TRACKING_URI = "http://127.0.0.1:5999";

/** A transport over a fake fetch with instant back-off; options override the defaults. */
export function fakeTransport(fetchImpl: typeof fetch, options: Partial<TransportOptions> = {}): MlflowTransport {
  return new MlflowTransport({
    endpoint: trackingEndpoint({ SERVICE_MLFLOW_TRACKING_URI: TRACKING_URI }),
    timeoutMs: 5_000,
    deadline: new Deadline(),
    budget: new ByteBudget(1 << 20, { bytes: 1 << 16, variable: "SERVICE_MAX_DOWNLOAD_FILE_BYTES" }, { bytes: 1 << 16, variable: "SERVICE_MAX_BODY_BYTES" }),
    fetch: fetchImpl,
    sleep: async () => undefined,
    ...options,
  });
}

export const fakeClient = (fetchImpl: typeof fetch, options: Partial<TransportOptions> = {}) => new MlflowClient(fakeTransport(fetchImpl, options));

/** A runs/get answer for a run whose artifacts are proxied (`mlflow-artifacts:`), with optional extras. */
export function runAnswer(runId: string, extra: Record<string, unknown> = {}) {
  return {
    run: {
      info: { run_id: runId, run_uuid: runId, experiment_id: "1", status: "FINISHED", artifact_uri: `mlflow-artifacts:/1/${runId}/artifacts`, lifecycle_stage: "active", start_time: 1 },
      data: {},
      ...extra,
    },
  };
}
