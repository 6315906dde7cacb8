import type { ArtifactSource, MlflowClient } from "./client.js";
import { classifyFiles, type FileRole } from "./discover.js";
import { isMlflowError } from "./errors.js";
import { walkFiles } from "./files.js";
import type { LocatedRun } from "./locate.js";
import type { FileInfo, LoggedModel, Run } from "./schemas.js";

/** A classified file together with where to download it from and the URI that names it. */
export interface SourcedFile {
  role: FileRole;
  file: FileInfo;
  source: ArtifactSource;
  uri: string;
  /** The MLflow 3 logged model it belongs to, or null for the run's own artifacts. */
  model: LoggedModel | null;
  /** Every path listed in the same source (for sibling checks). */
  siblings: readonly string[];
}

/** Logged models looked at per run (a run rarely logs more than one or two). */
const MAX_MODELS = 5;

/**
 * Lists what a run holds: its artifacts (under the reference's path, if any) and, on MLflow 3, the files of the
 * logged models it produced (`outputs.model_outputs`), which the run's own listing does not show. A path that is
 * not in the run but names one of its logged models (`runs:/<id>/<model name>/…`) narrows to that model.
 */
export async function takeInventory(client: MlflowClient, located: LocatedRun): Promise<SourcedFile[]> {
  const { run, path } = located;
  const runSource = client.runArtifacts(run.info);
  const models = await loggedModels(client, run);
  try {
    const own = await walkSourced(runSource, path, (p) => `runs:/${run.info.run_id}/${p}`);
    if (path !== "") return own;
    const fromModels = await Promise.all(models.map(async (m) => modelFiles(client, m, "")));
    return [...own, ...fromModels.flat()];
  } catch (err) {
    const [head, ...rest] = path.split("/");
    const model = models.find((m) => m.info.name === head);
    if (!model || !isMlflowError(err) || err.code !== "MLFLOW_NOT_FOUND") throw err;
    return modelFiles(client, model, rest.join("/"));
  }
}

/** The run's logged models; one deleted since (404) is skipped rather than failing the pull. */
async function loggedModels(client: MlflowClient, run: Run): Promise<LoggedModel[]> {
  const ids = [...new Set(run.outputs.model_outputs.map((o) => o.model_id))].slice(0, MAX_MODELS);
  const models = await Promise.all(
    ids.map((id) =>
      client.getLoggedModel(id).catch((err: unknown) => {
        if (isMlflowError(err) && err.code === "MLFLOW_NOT_FOUND") return null;
        throw err;
      }),
    ),
  );
  return models.filter((m): m is LoggedModel => m !== null);
}

/** The classified files of a logged model under `path`. */
export async function modelFiles(client: MlflowClient, model: LoggedModel, path: string): Promise<SourcedFile[]> {
  const source = client.loggedModelArtifacts(model.info.model_id);
  return walkSourced(source, path, (p) => `models:/${model.info.model_id}/${p}`, model);
}

/** Walks a source under `path` and classifies what it holds; `uri` names each file. */
export async function walkSourced(source: ArtifactSource, path: string, uri: (path: string) => string, model: LoggedModel | null = null): Promise<SourcedFile[]> {
  const files = await walkFiles(source, path);
  const siblings = files.map((f) => f.path);
  return classifyFiles(files).map(({ role, file }) => ({ role, file, source, uri: uri(file.path), model, siblings }));
}

/** Every run of the reference's own listing plus its models, for messages: "12 files in run 'abc', 3 in logged model 'm-…'". */
export function describeInventory(files: readonly SourcedFile[]): string {
  const counts = new Map<string, number>();
  for (const f of files) counts.set(f.source.label, (counts.get(f.source.label) ?? 0) + 1);
  return [...counts].map(([label, n]) => `${n} file(s) of interest in ${label}`).join(", ") || "no file of interest";
}
