import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { KnowledgeDocument } from "./document.js";
import { FullTextIndex, type FullTextJson } from "./full-text.js";
import { CORPUS_DIR, loadCorpus } from "./load-corpus.js";

/**
 * Where the production build writes the indexed corpus: beside the compiled knowledge modules (dist/knowledge/).
 * The sources have no such file, so `npm run dev` and the tests index the corpus at start as they read it.
 */
export const SNAPSHOT_FILE = fileURLToPath(new URL("./corpus-index.json", import.meta.url));

/** The corpus's documents and their full-text index, ready to answer queries. */
export interface IndexedCorpus {
  docs: KnowledgeDocument[];
  fullText: FullTextIndex;
}

interface SnapshotJson {
  docs: KnowledgeDocument[];
  fullText: FullTextJson;
}

/** Reads, validates and indexes a corpus directory: the one way the index is built, at start or in the build. */
export function indexCorpus(dir: string = CORPUS_DIR): IndexedCorpus {
  const docs = loadCorpus(dir);
  return { docs, fullText: new FullTextIndex(docs) };
}

/** Writes what `indexCorpus` built, for `readSnapshot` to take back with one JSON.parse (scripts/build.mjs). */
export function writeSnapshot(corpus: IndexedCorpus, file: string = SNAPSHOT_FILE): void {
  const json: SnapshotJson = { docs: corpus.docs, fullText: corpus.fullText.toJSON() };
  writeFileSync(file, JSON.stringify(json));
}

/**
 * The corpus the build indexed, or null when there is no snapshot (running from the sources). Not validated
 * again: the build wrote it from documents the corpus schema had accepted, into the same dist/ that runs it, and
 * validating it would cost the start-up time it saves (YAML and zod were ~30 ms of the ~60 ms it replaces).
 */
export function readSnapshot(file: string = SNAPSHOT_FILE): IndexedCorpus | null {
  if (!existsSync(file)) return null;
  const json = JSON.parse(readFileSync(file, "utf8")) as SnapshotJson;
  return { docs: json.docs, fullText: new FullTextIndex({ restore: json.fullText }) };
}
