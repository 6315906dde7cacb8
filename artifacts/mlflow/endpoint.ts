import type { ServiceSettings } from "../../config/env.js";
import { MlflowError } from "./errors.js";

/** Where and how to reach the tracking server: built once from the settings, never from a request. */
export interface MlflowEndpoint {
  /** Base URL without credentials, query or trailing slash; a `--static-prefix` path is kept. */
  base: string;
  /** The URI as messages may show it: no user, password, query or fragment. */
  display: string;
  /** Authorization header value, or null. */
  authorization: string | null;
}

type EndpointSettings = Pick<
  ServiceSettings,
  "SERVICE_MLFLOW_TRACKING_URI" | "SERVICE_MLFLOW_TOKEN" | "SERVICE_MLFLOW_USERNAME" | "SERVICE_MLFLOW_PASSWORD"
>;

/**
 * Reads the configured tracking URI. Credentials may come from the token, the username/password pair or the
 * URI's own `user:pass@` part (fetch refuses URLs that carry them, so they move into the header).
 */
export function trackingEndpoint(settings: EndpointSettings): MlflowEndpoint {
  const raw = settings.SERVICE_MLFLOW_TRACKING_URI;
  if (!raw) {
    throw new MlflowError(
      "MLFLOW_NOT_CONFIGURED",
      "mlflow: this service has no tracking server configured (SERVICE_MLFLOW_TRACKING_URI is unset); send the artifacts inline instead",
    );
  }
  const url = new URL(raw);
  const user = decodeURIComponent(url.username) || settings.SERVICE_MLFLOW_USERNAME;
  const password = decodeURIComponent(url.password) || settings.SERVICE_MLFLOW_PASSWORD;
  url.username = "";
  url.password = "";
  url.search = "";
  url.hash = "";
  const base = url.toString().replace(/\/+$/, "");
  let authorization: string | null = null;
  if (settings.SERVICE_MLFLOW_TOKEN) authorization = `Bearer ${settings.SERVICE_MLFLOW_TOKEN}`;
  else if (user && password) authorization = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
  return { base, display: base, authorization };
}

/** Joins the base, a REST path and query parameters (a repeated key for array values). */
export function endpointUrl(endpoint: MlflowEndpoint, path: string, query: Record<string, string | number | readonly string[] | undefined> = {}): string {
  const url = new URL(endpoint.base + path);
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) url.searchParams.append(key, String(v));
    else url.searchParams.set(key, String(value));
  }
  return url.toString();
}

/** Encodes each segment of a slash-separated artifact path for use inside a URL path. */
export function encodePath(path: string): string {
  return path
    .split("/")
    .filter((s) => s.length > 0)
    .map(encodeURIComponent)
    .join("/");
}
