import type { MlflowReference } from "./reference.js";
import type { MlflowClient } from "./client.js";
import { MlflowError } from "./errors.js";
import type { Run } from "./schemas.js";

/** The run a request points at, and the artifact sub-path a `runs:/<id>/<path>` URI narrows the pull to. */
export interface LocatedRun {
  run: Run;
  /** "" for the whole run. */
  path: string;
  /** How it was found, for progress and logs. */
  how: string;
}

/** `runs:/<run_id>[/path]` → its parts (the request schema already checked the shape). */
export function parseRunsUri(uri: string): { runId: string; path: string } {
  const rest = uri.replace(/^runs:\/+/, "");
  const slash = rest.indexOf("/");
  return slash < 0 ? { runId: rest, path: "" } : { runId: rest.slice(0, slash), path: rest.slice(slash + 1).replace(/^\/+|\/+$/g, "") };
}

/** Finds the run of an `mlflow` reference, or of a bare dataset name (see `findDatasetRun`). */
export async function locateRun(client: MlflowClient, ref: MlflowReference | null, datasetName: string | null): Promise<LocatedRun> {
  if (ref && "run_id" in ref) return { run: await getLiveRun(client, ref.run_id), path: "", how: `run_id ${ref.run_id}` };
  if (ref && "run_uri" in ref) {
    const { runId, path } = parseRunsUri(ref.run_uri);
    return { run: await getLiveRun(client, runId), path, how: ref.run_uri };
  }
  if (ref) return { run: await findNamedRun(client, ref.experiment, ref.run_name), path: "", how: `run '${ref.run_name}' in experiment '${ref.experiment}'` };
  if (datasetName) return { run: await findDatasetRun(client, datasetName), path: "", how: `dataset_name '${datasetName}'` };
  throw new Error("locateRun: no reference to resolve");
}

async function getLiveRun(client: MlflowClient, runId: string): Promise<Run> {
  const run = await client.getRun(runId);
  if (run.info.lifecycle_stage === "deleted") {
    throw new MlflowError("MLFLOW_NOT_FOUND", `run '${runId}' is deleted on the tracking server ${client.http.endpoint.display}`);
  }
  return run;
}

/** The latest run (by start time, any status) with this name in the experiment. */
async function findNamedRun(client: MlflowClient, experimentName: string, runName: string): Promise<Run> {
  const experiment = await client.getExperimentByName(experimentName);
  const filter = equals("attributes.run_name", runName);
  const [run] = filter ? await client.searchRuns({ experimentIds: [experiment.experiment_id], filter, orderBy: LATEST_FIRST, limit: 1 }) : [];
  if (!run) throw new MlflowError("MLFLOW_NOT_FOUND", `no run named '${runName}' in experiment '${experimentName}' on the tracking server ${client.http.endpoint.display}`);
  return run;
}

const LATEST_FIRST = ["attributes.start_time DESC"];
/** Experiment ids per runs/search call. */
const EXPERIMENT_CHUNK = 100;

/**
 * The dataset rule: among FINISHED runs of every active experiment that are tagged `dataset_name = <name>`,
 * named `<name>`, or logged a dataset input named `<name>`, the one that started last.
 */
export async function findDatasetRun(client: MlflowClient, datasetName: string): Promise<Run> {
  const ids = (await client.searchExperiments()).map((e) => e.experiment_id);
  const filters = [equals("tags.dataset_name", datasetName), equals("attributes.run_name", datasetName), equals("datasets.name", datasetName)];
  const found: Run[] = [];
  for (let i = 0; i < ids.length; i += EXPERIMENT_CHUNK) {
    const experimentIds = ids.slice(i, i + EXPERIMENT_CHUNK);
    for (const f of filters) {
      if (!f) continue;
      found.push(...(await client.searchRuns({ experimentIds, filter: `attributes.status = 'FINISHED' and ${f}`, orderBy: LATEST_FIRST, limit: 1 })));
    }
  }
  const latest = found.sort((a, b) => (b.info.start_time ?? 0) - (a.info.start_time ?? 0))[0];
  if (!latest) {
    throw new MlflowError(
      "MLFLOW_NOT_FOUND",
      `no finished run found for dataset '${datasetName}' on the tracking server ${client.http.endpoint.display} ` +
        `(looked for a run tagged dataset_name='${datasetName}', a run named '${datasetName}', and a run with a dataset input named '${datasetName}')`,
    );
  }
  return latest;
}

/**
 * The dataset a run was trained on, as the dataset rule above finds runs by it: its `dataset_name` tag, else the
 * name of its dataset input tagged `mlflow.data.context = train[ing]`, else of its only dataset input; null when
 * the run says nothing (or several untagged inputs leave it open).
 */
export function runDatasetName(run: Run): string | null {
  const tagged = run.data.tags.find((t) => t.key === "dataset_name")?.value;
  if (tagged) return tagged;
  const inputs = run.inputs.dataset_inputs;
  const training = inputs.find((i) => i.tags.some((t) => t.key === "mlflow.data.context" && /^train(ing)?$/i.test(t.value)));
  return (training ?? (inputs.length === 1 ? inputs[0] : undefined))?.dataset.name ?? null;
}

/** `key = 'value'` in MLflow's filter syntax, or null when the value holds both quote kinds (not expressible). */
export function equals(key: string, value: string): string | null {
  if (!value.includes("'")) return `${key} = '${value}'`;
  if (!value.includes('"')) return `${key} = "${value}"`;
  return null;
}
