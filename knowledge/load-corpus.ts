import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CORE_SCHEMA, load as loadYaml } from "js-yaml";
import { FrontMatterSchema, type KnowledgeDocument } from "./document.js";

/** The corpus shipped with the service. */
export const CORPUS_DIR = fileURLToPath(new URL("./corpus/", import.meta.url));

const SNIPPET_CHARS = 280;

/** A corpus file that cannot be used; the message names the file and the field. */
export class CorpusError extends Error {
  override name = "CorpusError";
}

/** The first paragraph as plain text, cut at a word boundary. */
function snippetOf(body: string): string {
  const first = body.trim().split(/\n\s*\n/)[0] ?? "";
  const plain = first.replace(/\*\*|`|_/g, "").replace(/\s+/g, " ").trim();
  if (plain.length <= SNIPPET_CHARS) return plain;
  const cut = plain.slice(0, SNIPPET_CHARS);
  return `${cut.slice(0, cut.lastIndexOf(" "))}…`;
}

/** Parses one markdown document with YAML front matter; throws CorpusError naming the file and field. */
export function parseDocument(text: string, file: string): KnowledgeDocument {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n([\s\S]*)$/.exec(text);
  if (!match) throw new CorpusError(`${file}: missing front matter between --- lines`);
  let raw: unknown;
  try {
    // Core schema: strings, numbers, lists and maps only (no dates or custom tags).
    raw = loadYaml(match[1]!, { schema: CORE_SCHEMA, filename: file });
  } catch (err) {
    throw new CorpusError(`${file}: front matter is not YAML: ${(err as Error).message}`);
  }
  const parsed = FrontMatterSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new CorpusError(`${file}: ${problems}`);
  }
  const body = match[2]!.trim();
  if (body.length === 0) throw new CorpusError(`${file}: empty body`);
  return { ...parsed.data, body, snippet: snippetOf(body) };
}

/** Reads every `*.md` document of a corpus directory, in file-name order; ids must be unique. */
export function loadCorpus(dir: string = CORPUS_DIR): KnowledgeDocument[] {
  const files = readdirSync(dir).filter((f) => f.endsWith(".md")).sort();
  const docs = files.map((f) => parseDocument(readFileSync(join(dir, f), "utf8"), f));
  const seen = new Set<string>();
  for (const d of docs) {
    if (seen.has(d.id)) throw new CorpusError(`duplicate document id "${d.id}" in ${dir}`);
    seen.add(d.id);
  }
  if (docs.length === 0) throw new CorpusError(`no documents in ${dir}`);
  return docs;
}
