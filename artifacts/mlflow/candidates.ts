import { checkpointDownloadPath } from "../../nodes/checkpoint/paths.js";
import { formatBytes } from "./budget.js";
import { type CheckpointCandidate, parseAliases } from "./build/checkpoint.js";
import type { MlflowClient } from "./client.js";
import { basename, dirnameOf } from "./discover.js";
import { readDocuments } from "./documents.js";
import { saveFile } from "./files.js";
import type { SourcedFile } from "./inventory.js";
import { inModelDir } from "./select.js";

/** Aliases files read at most to rank Lightning checkpoints. */
const MAX_ALIAS_FILES = 10;

const dirKey = (f: SourcedFile) => `${f.source.label}|${dirnameOf(f.file.path)}`;

/** Every weights file, with whether it sits in a model dir and the Lightning aliases (`aliases.txt`) beside it. */
export async function checkpointCandidates(client: MlflowClient, files: readonly SourcedFile[]): Promise<CheckpointCandidate[]> {
  const weights = files.filter((f) => f.role === "checkpoint");
  const dirs = new Set(weights.map(dirKey));
  const aliasFiles = files.filter((f) => basename(f.file.path) === "aliases.txt" && dirs.has(dirKey(f))).slice(0, MAX_ALIAS_FILES);
  const docs = await readDocuments(client.http, aliasFiles);
  const aliases = new Map(docs.map((d, i) => [dirKey(aliasFiles[i]!), parseAliases(d.text)]));
  return weights.map((w) => ({ ...w, inModelDir: inModelDir(files, w), aliases: aliases.get(dirKey(w)) ?? [] }));
}

/** Streams the chosen weights to where the checkpoint analyzer looks for the file its URI names. */
export async function downloadCheckpoint(client: MlflowClient, chosen: CheckpointCandidate, workspace: string, progress: (m: string) => void): Promise<void> {
  const size = chosen.file.file_size !== undefined ? ` (${formatBytes(chosen.file.file_size)})` : "";
  progress(`downloading checkpoint ${chosen.uri}${size}`);
  await saveFile(client.http, chosen.source, chosen.file, checkpointDownloadPath(workspace, chosen.uri));
}
