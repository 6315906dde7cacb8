import { rankCheckpoints } from "./build/checkpoint.js";
import { checkpointCandidates, downloadCheckpoint } from "./candidates.js";
import { type MlflowClient, proxiedRoot } from "./client.js";
import { MlflowError } from "./errors.js";
import { modelFiles, type SourcedFile, takeInventory, walkSourced } from "./inventory.js";
import { parseRunsUri } from "./locate.js";

/** Registry indirections followed at most (models:/name/1 → models:/m-… → files). */
const MAX_HOPS = 3;

/**
 * Downloads the weights an inline `checkpoint_path` URI names (`runs:/…`, `models:/<model_id>/…`,
 * `models:/<name>/<version>`, `models:/<name>@<alias>`, `mlflow-artifacts:/…`) to where the checkpoint analyzer
 * looks for it. A URI naming a directory (a logged model) picks its weights file the way a pulled run does.
 * Returns the URI of the file actually fetched.
 */
export async function fetchCheckpointUri(client: MlflowClient, uri: string, workspace: string, progress: (m: string) => void): Promise<string> {
  const files = await filesOf(client, uri, MAX_HOPS);
  const [chosen] = rankCheckpoints(await checkpointCandidates(client, files));
  if (!chosen) throw new MlflowError("MLFLOW_NOT_FOUND", `model_checkpoint_artifacts.checkpoint_path: no weights file (.safetensors, .ckpt, .pt, .pth, .bin) under ${uri}`);
  await downloadCheckpoint(client, chosen, workspace, progress);
  return chosen.uri;
}

async function filesOf(client: MlflowClient, uri: string, hops: number): Promise<SourcedFile[]> {
  if (uri.startsWith("runs:/")) {
    const { runId, path } = parseRunsUri(uri);
    return takeInventory(client, { run: await client.getRun(runId), path, how: uri });
  }
  const proxied = proxiedRoot(uri);
  if (proxied !== null) return walkSourced(client.proxiedArtifacts(""), proxied, (p) => `mlflow-artifacts:/${p}`);
  const m = /^models:\/+([^/@]+)(?:@([^/]+)|\/([^/]+))?(?:\/(.*))?$/.exec(uri);
  if (!m) throw new MlflowError("MLFLOW_NOT_FOUND", `model_checkpoint_artifacts.checkpoint_path: '${uri}' is not a runs:/, models:/ or mlflow-artifacts:/ URI`);
  const [, name = "", alias, version, rest = ""] = m;
  if (/^m-[0-9a-f]+$/.test(name) && !alias) {
    return modelFiles(client, await client.getLoggedModel(name), [version, rest].filter(Boolean).join("/"));
  }
  if (hops <= 0) throw new MlflowError("MLFLOW_BAD_RESPONSE", `${uri}: the registry points from model to model more than ${MAX_HOPS} times`);
  if (!alias && (!version || !/^\d+$/.test(version))) {
    throw new MlflowError("MLFLOW_NOT_FOUND", `${uri}: name a registered model version (models:/<name>/<version>) or alias (models:/<name>@<alias>); stages are not supported`);
  }
  const resolvedVersion = alias ? await client.aliasVersion(name, alias) : version!;
  const target = await client.modelVersionUri(name, resolvedVersion);
  if (!/^(runs|models|mlflow-artifacts):/.test(target)) {
    throw new MlflowError("MLFLOW_BAD_RESPONSE", `${uri}: the version's files are at a ${target.split(":")[0]}: location, which this service only reads through the tracking server (runs:, models:, mlflow-artifacts:)`);
  }
  return filesOf(client, rest ? `${target.replace(/\/+$/, "")}/${rest}` : target, hops - 1);
}
