import {
  AliasResponse,
  DownloadUriResponse,
  type Experiment,
  type FileInfo,
  GetExperimentResponse,
  GetLoggedModelResponse,
  GetRunResponse,
  ListArtifactsResponse,
  type LoggedModel,
  type Metric,
  MetricHistoryResponse,
  type Run,
  SearchExperimentsResponse,
  SearchRunsResponse,
} from "./schemas.js";
import { basename } from "./discover.js";
import type { ServiceSettings } from "../../config/env.js";
import type { Deadline } from "../../graph/deadline.js";
import { ByteBudget } from "./budget.js";
import { encodePath, trackingEndpoint } from "./endpoint.js";
import { MlflowTransport, type OpenResponse, type Sleep } from "./transport.js";

const API = "/api/2.0/mlflow";

/** Guards every paged loop against a server that keeps answering with a token. */
const MAX_PAGES = 1000;

export interface SearchRunsRequest {
  experimentIds: string[];
  filter?: string;
  orderBy?: string[];
  /** Stop after this many runs (the page size follows it, at most 1000). */
  limit?: number;
}

/** Where a tree of artifact files lives: a run's artifact root or an MLflow 3 logged model. */
export interface ArtifactSource {
  /** "run 'abc'" or "logged model 'm-…'", for messages. */
  label: string;
  list(path: string): Promise<FileInfo[]>;
  open(path: string): Promise<OpenResponse>;
}

/** What a client is built from: the settings plus the request's deadline, and test seams. */
export interface ClientOptions {
  settings: MlflowSettings;
  deadline: Deadline;
  fetch?: typeof fetch;
  sleep?: Sleep;
}

type MlflowSettings = Pick<
  ServiceSettings,
  | "SERVICE_MLFLOW_TRACKING_URI"
  | "SERVICE_MLFLOW_TOKEN"
  | "SERVICE_MLFLOW_USERNAME"
  | "SERVICE_MLFLOW_PASSWORD"
  | "SERVICE_MLFLOW_TIMEOUT_MS"
  | "SERVICE_MAX_DOWNLOAD_BYTES"
  | "SERVICE_MAX_DOWNLOAD_FILE_BYTES"
  | "SERVICE_MAX_BODY_BYTES"
>;

/** Typed calls of the MLflow REST API (2.x and 3.x) over one transport. */
export class MlflowClient {
  constructor(readonly http: MlflowTransport) {}

  /** A client for one request: the configured server, the request's deadline and a fresh byte budget. */
  static forRequest({ settings, deadline, fetch, sleep }: ClientOptions): MlflowClient {
    const budget = new ByteBudget(
      settings.SERVICE_MAX_DOWNLOAD_BYTES,
      { bytes: settings.SERVICE_MAX_DOWNLOAD_FILE_BYTES, variable: "SERVICE_MAX_DOWNLOAD_FILE_BYTES" },
      { bytes: settings.SERVICE_MAX_BODY_BYTES, variable: "SERVICE_MAX_BODY_BYTES" },
    );
    const endpoint = trackingEndpoint(settings);
    return new MlflowClient(new MlflowTransport({ endpoint, timeoutMs: settings.SERVICE_MLFLOW_TIMEOUT_MS, deadline, budget, fetch, sleep }));
  }

  /** The server's version as plain text (`/version`), e.g. "2.22.5". */
  async version(): Promise<string> {
    return (await this.http.text("/version", "server version")).trim();
  }

  async getRun(runId: string): Promise<Run> {
    return (await this.http.json(GetRunResponse, `run '${runId}'`, `${API}/runs/get`, { query: { run_id: runId } })).run;
  }

  async getExperimentByName(name: string): Promise<Experiment> {
    const what = `experiment '${name}'`;
    return (await this.http.json(GetExperimentResponse, what, `${API}/experiments/get-by-name`, { query: { experiment_name: name } })).experiment;
  }

  /** Every active experiment, following page tokens. */
  async searchExperiments(): Promise<Experiment[]> {
    const out: Experiment[] = [];
    await this.paged(async (pageToken) => {
      const page = await this.http.json(SearchExperimentsResponse, "experiment search", `${API}/experiments/search`, {
        body: { max_results: 1000, view_type: "ACTIVE_ONLY", page_token: pageToken },
      });
      out.push(...page.experiments);
      return page.next_page_token;
    });
    return out;
  }

  /** runs/search (POST), following page tokens until `limit` runs or the last page. */
  async searchRuns(request: SearchRunsRequest): Promise<Run[]> {
    const limit = request.limit ?? Number.POSITIVE_INFINITY;
    const out: Run[] = [];
    await this.paged(async (pageToken) => {
      const page = await this.http.json(SearchRunsResponse, "run search", `${API}/runs/search`, {
        body: {
          experiment_ids: request.experimentIds,
          filter: request.filter ?? "",
          run_view_type: "ACTIVE_ONLY",
          max_results: Math.min(1000, limit - out.length),
          order_by: request.orderBy ?? [],
          page_token: pageToken,
        },
      });
      out.push(...page.runs);
      return out.length >= limit ? undefined : page.next_page_token;
    });
    return out.slice(0, limit);
  }

  /** The full history of one metric. Without max_results the server answers at once; a token is followed anyway. */
  async metricHistory(runId: string, key: string): Promise<Metric[]> {
    const out: Metric[] = [];
    await this.paged(async (pageToken) => {
      const page = await this.http.json(MetricHistoryResponse, `history of metric '${key}' in run '${runId}'`, `${API}/metrics/get-history`, {
        query: { run_id: runId, metric_key: key, page_token: pageToken, max_results: pageToken ? 25_000 : undefined },
      });
      out.push(...page.metrics);
      return page.next_page_token;
    });
    return out;
  }

  async getLoggedModel(modelId: string): Promise<LoggedModel> {
    const what = `logged model '${modelId}'`;
    return (await this.http.json(GetLoggedModelResponse, what, `${API}/logged-models/${encodeURIComponent(modelId)}`)).model;
  }

  /** A run's artifact tree: listed through artifacts/list, downloaded through the proxy or /get-artifact. */
  runArtifacts(run: Pick<Run["info"], "run_id" | "artifact_uri">): ArtifactSource {
    const label = `run '${run.run_id}'`;
    const proxied = proxiedRoot(run.artifact_uri);
    return {
      label,
      list: (path) =>
        this.listed(`artifacts of ${label} at '${path || "/"}'`, `${API}/artifacts/list`, { run_id: run.run_id, path: path || undefined }),
      open: (path) =>
        proxied !== null
          ? this.http.open(`/api/2.0/mlflow-artifacts/artifacts/${encodePath(`${proxied}/${path}`)}`, `artifact '${path}' of ${label}`, {})
          : this.http.open("/get-artifact", `artifact '${path}' of ${label}`, { query: { run_id: run.run_id, path } }),
    };
  }

  /** An MLflow 3 logged model's files (they are not under the run's artifacts). */
  loggedModelArtifacts(modelId: string): ArtifactSource {
    const label = `logged model '${modelId}'`;
    const id = encodeURIComponent(modelId);
    return {
      label,
      list: (path) =>
        this.listed(`artifacts of ${label} at '${path || "/"}'`, `${API}/logged-models/${id}/artifacts/directories`, {
          artifact_directory_path: path || undefined,
        }),
      // The file route exists only under ajax-api (FORMATS.md §1.2).
      open: (path) =>
        this.http.open(`/ajax-api/2.0/mlflow/logged-models/${id}/artifacts/files`, `file '${path}' of ${label}`, {
          query: { artifact_file_path: path },
        }),
    };
  }

  /**
   * Files behind an `mlflow-artifacts:/<root>` URI, through the artifact proxy (`--serve-artifacts`). Its
   * listing gives base names only; they are made relative to the root like the other sources.
   */
  proxiedArtifacts(root: string): ArtifactSource {
    const base = root.replace(/^\/+|\/+$/g, "");
    const label = `mlflow-artifacts:/${base}`;
    const join = (path: string) => [base, path].filter((p) => p !== "").join("/");
    return {
      label,
      list: async (path) => {
        const files = await this.listed(`artifacts of ${label} at '${path || "/"}'`, "/api/2.0/mlflow-artifacts/artifacts", { path: join(path) || undefined });
        return files.map((f) => ({ ...f, path: [path, basename(f.path)].filter((p) => p !== "").join("/") }));
      },
      open: (path) => this.http.open(`/api/2.0/mlflow-artifacts/artifacts/${encodePath(join(path))}`, `artifact '${path}' of ${label}`, {}),
    };
  }

  /** Where a registered model version's files are (`artifact_uri`: mlflow-artifacts:, runs:, models:/m-… or a store path). */
  async modelVersionUri(name: string, version: string): Promise<string> {
    const what = `version ${version} of registered model '${name}'`;
    return (await this.http.json(DownloadUriResponse, what, `${API}/model-versions/get-download-uri`, { query: { name, version } })).artifact_uri;
  }

  /** The version an alias of a registered model points at. */
  async aliasVersion(name: string, alias: string): Promise<string> {
    const what = `alias '${alias}' of registered model '${name}'`;
    return (await this.http.json(AliasResponse, what, `${API}/registered-models/alias`, { query: { name, alias } })).model_version.version;
  }

  /** One directory level; OSS never pages, Databricks does, so the token loop stays. */
  private async listed(what: string, path: string, query: Record<string, string | undefined>): Promise<FileInfo[]> {
    const out: FileInfo[] = [];
    await this.paged(async (pageToken) => {
      const page = await this.http.json(ListArtifactsResponse, what, path, { query: { ...query, page_token: pageToken } });
      out.push(...page.files);
      return page.next_page_token;
    });
    return out;
  }

  private async paged(fetchPage: (token: string | undefined) => Promise<string | undefined>): Promise<void> {
    let token: string | undefined;
    const seen = new Set<string>();
    for (let page = 0; page < MAX_PAGES; page++) {
      token = (await fetchPage(token)) || undefined;
      if (!token || seen.has(token)) return;
      seen.add(token);
    }
  }
}

/** `mlflow-artifacts:/1/abc/artifacts` or `mlflow-artifacts://host:port/1/abc/artifacts` → "1/abc/artifacts"; null for other schemes. */
export function proxiedRoot(artifactUri: string): string | null {
  const m = /^mlflow-artifacts:(\/\/[^/]*)?\/*(.*)$/.exec(artifactUri);
  // The authority part is ignored on purpose: downloads only ever go to the configured server.
  return m ? (m[2] ?? "").replace(/\/+$/, "") : null;
}
