import type { ServiceSettings } from "../config/env.js";
import type { Logger } from "../config/logger.js";
import type { Deadline } from "../graph/deadline.js";
import { isMlflowUri } from "../nodes/checkpoint/paths.js";
import { ARTIFACT_KINDS, type AnalysisContext, type ArtifactInput, type ArtifactKind } from "./context.js";
import { fetchCheckpointUri } from "./mlflow/checkpoint-uri.js";
import { MlflowClient } from "./mlflow/client.js";
import { locateRun, runDatasetName } from "./mlflow/locate.js";
import { pullRun } from "./mlflow/pull.js";
import type { Sleep } from "./mlflow/transport.js";

export interface ResolveOptions {
  settings: Readonly<ServiceSettings>;
  /** The request's deadline: client gone or request time-out stops every call and download; each call is a scope of it. */
  deadline: Deadline;
  /** The request's workspace directory (artifacts/workspace.ts); the caller removes it. */
  workspace: string;
  /** Progress lines for streaming clients ("downloading checkpoint …"). */
  progress?: (message: string) => void;
  logger: Logger;
  /** Test seams. */
  fetch?: typeof fetch;
  sleep?: Sleep;
}

/** What a context asks of the tracking server, if anything. */
interface Wanted {
  /** Pull a run (an `mlflow` reference, or a bare `dataset_name` with a server configured). */
  run: boolean;
  /** Inline checkpoints whose checkpoint_path is an MLflow URI, to download. */
  checkpointUris: ArtifactInput[];
}

function wanted(context: AnalysisContext, settings: Readonly<ServiceSettings>): Wanted {
  const configured = !!settings.SERVICE_MLFLOW_TRACKING_URI;
  const datasetOnly = !context.mlflow && context.artifacts.length === 0 && !!context.datasetName && configured;
  // With no server configured, a checkpoint URI stays metadata-only (the checkpoint analyzer says so).
  const checkpointUris = configured
    ? context.artifacts.filter((a) => a.kind === "checkpoint" && typeof a.payload.checkpoint_path === "string" && isMlflowUri(a.payload.checkpoint_path))
    : [];
  return { run: !!context.mlflow || datasetOnly, checkpointUris };
}

/** Whether the context names anything on the tracking server (a run, a dataset, a checkpoint URI). */
export function needsTrackingServer(context: AnalysisContext, settings: Readonly<ServiceSettings>): boolean {
  const w = wanted(context, settings);
  return w.run || w.checkpointUris.length > 0;
}

/**
 * Turns a request's MLflow references into artifacts before the graph runs: the run named by `mlflow` (or the
 * latest finished run of a bare `dataset_name`) is pulled for every kind not sent inline (inline wins per
 * kind), and inline checkpoint URIs are downloaded into the workspace. A context that names nothing on the
 * server comes back as is, without any network call. Failures are MlflowError values (404, 400, 413, 502, 503).
 */
export async function resolveReferences(context: AnalysisContext, options: ResolveOptions): Promise<AnalysisContext> {
  const want = wanted(context, options.settings);
  if (!want.run && want.checkpointUris.length === 0) return context;
  const progress = options.progress ?? (() => undefined);
  const client = MlflowClient.forRequest(options);
  const log = options.logger.child({ tracking_server: client.http.endpoint.display });

  const artifacts = [...context.artifacts];
  let datasetName = context.datasetName;
  for (const inline of want.checkpointUris) {
    const uri = inline.payload.checkpoint_path as string;
    const fetched = await fetchCheckpointUri(client, uri, options.workspace, progress);
    if (fetched !== uri) artifacts[artifacts.indexOf(inline)] = { ...inline, payload: { ...inline.payload, checkpoint_path: fetched } };
  }

  if (want.run) {
    const inlineKinds = new Set(context.artifacts.map((a) => a.kind));
    const kinds = new Set<ArtifactKind>(ARTIFACT_KINDS.filter((k) => !inlineKinds.has(k)));
    if (kinds.size === 0) {
      log.info("mlflow reference ignored: every artifact kind was sent inline");
    } else {
      // The version only labels progress and logs; a server or proxy without /version is fine.
      const version = client.version().catch(() => "unknown");
      const located = await locateRun(client, context.mlflow, context.datasetName);
      progress(`found run ${located.run.info.run_id} (${located.how}) on MLflow ${await version}`);
      const pulled = await pullRun(client, located, { kinds, workspace: options.workspace, progress });
      artifacts.push(...pulled);
      // The response names the run's dataset when the request did not (its tag, or its training input).
      datasetName ??= runDatasetName(located.run);
      log.info("pulled artifacts from the tracking server", {
        mlflow_version: await version,
        run_id: located.run.info.run_id,
        kinds: pulled.map((a) => a.kind),
        bytes: client.http.budget.total,
      });
    }
  }
  return { ...context, artifacts, datasetName };
}
