import { checkRuns, type CompareContext, type CompareRun, type MlflowRunsSelector, TooManyRunsError } from "../compare-request.js";
import type { ServiceSettings } from "../../config/env.js";
import type { Deadline } from "../../graph/deadline.js";
import { MlflowClient } from "./client.js";
import { trackingEndpoint } from "./endpoint.js";
import { isMlflowError, MlflowError } from "./errors.js";
import { RequestDecodeError } from "../request.js";
import type { Run } from "./schemas.js";

const LATEST_FIRST = ["attributes.start_time DESC"];

export interface ExpandOptions {
  settings: Readonly<ServiceSettings>;
  deadline: Deadline;
  fetch?: typeof fetch;
}

/** Runs of one selector: the experiment's matching runs, latest first, or the listed ids (looked up by the pull). */
async function selectRuns(client: MlflowClient, selector: MlflowRunsSelector, index: number, room: number): Promise<Array<{ runId: string; name: string | null }>> {
  if ("run_ids" in selector) return selector.run_ids.map((runId) => ({ runId, name: null }));
  const experiment = await client.getExperimentByName(selector.experiment);
  // One more than the room left, so a selector that would overflow the limit is told apart from one that fills it.
  const limit = Math.min(selector.max_runs ?? Number.POSITIVE_INFINITY, room + 1);
  const runs: Run[] = await client
    .searchRuns({ experimentIds: [experiment.experiment_id], filter: selector.filter ?? undefined, orderBy: LATEST_FIRST, limit })
    .catch((err: unknown) => {
      // The server refusing the request's own filter is the request's fault (400), not a bad server (502).
      if (selector.filter && isMlflowError(err) && /\b400 INVALID_PARAMETER_VALUE\b/.test(err.message)) {
        throw new RequestDecodeError(`runs[${index}].mlflow.filter: the tracking server refused the filter ${JSON.stringify(selector.filter.slice(0, 200))} (${err.message.slice(0, 300)}); MLflow filters join conditions with "and" only`);
      }
      throw err;
    });
  if (runs.length === 0) {
    const filtered = selector.filter ? ` matching ${JSON.stringify(selector.filter)}` : "";
    throw new MlflowError("MLFLOW_NOT_FOUND", `no active run${filtered} in experiment '${selector.experiment}' on the tracking server ${client.http.endpoint.display}`);
  }
  return runs.map((r) => ({ runId: r.info.run_id, name: r.info.run_name ?? null }));
}

/**
 * Replaces a comparison's tracking-server selectors by one run each they find (each pulled later, by the run's own
 * analysis), then checks the whole list: SERVICE_MAX_COMPARE_RUNS (413), one name per run, the baseline. A run's
 * name is its MLflow run name, made unique with its id when two share one; listed ids are named by their id.
 */
export async function expandExperimentRuns(context: CompareContext, options: ExpandOptions): Promise<CompareContext> {
  const maxRuns = options.settings.SERVICE_MAX_COMPARE_RUNS;
  // A run named on a server this service does not have is refused now (400 naming the variable), not analysed empty.
  if (context.runs.some((r) => r.context.mlflow)) trackingEndpoint(options.settings);
  if (context.selectors.length === 0) return checkRuns(context, maxRuns);
  const client = MlflowClient.forRequest({ settings: options.settings, deadline: options.deadline, fetch: options.fetch });
  const runs: CompareRun[] = [...context.runs];
  const taken = new Set(runs.map((r) => r.name));
  for (const { index, selector } of context.selectors) {
    const found = await selectRuns(client, selector, index, maxRuns - runs.length);
    if (runs.length + found.length > maxRuns) throw new TooManyRunsError(runs.length + found.length, maxRuns);
    for (const { runId, name } of found) {
      const wanted = name ?? runId;
      const unique = taken.has(wanted) ? `${wanted}-${runId.slice(0, 8)}` : wanted;
      taken.add(unique);
      runs.push({
        name: unique,
        index,
        runId,
        context: { requestId: context.requestId, datasetName: context.datasetName, language: context.language, modelName: null, strict: context.strict, trace: false, mlflow: { run_id: runId }, artifacts: [] },
      });
    }
  }
  // Request order: a selector's runs take its place among the inline runs (stable within it: latest first).
  runs.sort((a, b) => a.index - b.index);
  return checkRuns({ ...context, runs: runs.map((r, i) => ({ ...r, index: i })), selectors: [] }, maxRuns);
}
