import { type CheckpointCandidate, parseAliases } from "./build/checkpoint.js";
import type { MlflowClient } from "./client.js";
import { basename, dirnameOf } from "./discover.js";
import { readDocuments } from "./documents.js";
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
