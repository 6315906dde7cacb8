import { load } from "js-yaml";
import { parseTolerantJson } from "../tolerant-json.js";
import type { ArtifactSource } from "./client.js";
import type { FileRole } from "./discover.js";
import { readDocument } from "./files.js";
import type { FileInfo } from "./schemas.js";
import { mapSettled } from "./map-settled.js";
import type { MlflowTransport } from "./transport.js";

/** A file read into memory: its text and, for JSON/YAML, the parsed value (undefined when it did not parse). */
export interface PulledDocument {
  /** Path inside its source (run or logged model). */
  path: string;
  role: FileRole;
  /** Size in bytes as read. */
  size: number;
  text: string;
  bytes: Uint8Array;
  value: unknown;
}

/** Reads each file and parses JSON (tolerating bare NaN) and YAML; a document that does not parse keeps value undefined. */
export async function readDocuments(
  http: MlflowTransport,
  files: readonly { role: FileRole; file: FileInfo; source: ArtifactSource }[],
  concurrency = 4,
): Promise<PulledDocument[]> {
  return mapSettled(files, concurrency, async ({ role, file, source }) => {
    const bytes = await readDocument(http, source, file);
    const text = role === "tfevents" ? "" : new TextDecoder().decode(bytes);
    return { path: file.path, role, size: bytes.byteLength, bytes, text, value: parseStructured(file.path, text) };
  });
}

/** JSON by `.json`, YAML by `.yaml`/`.yml`/`MLmodel`; anything else (CSV, logs, event files) stays text. */
export function parseStructured(path: string, text: string): unknown {
  try {
    if (/\.json$/i.test(path)) return parseTolerantJson(text);
    if (/(\.ya?ml|(^|\/)MLmodel)$/i.test(path)) return loadYaml(text);
  } catch {
    return undefined;
  }
  return undefined;
}

/** Python writers tag objects (`!!python/object:argparse.Namespace`); the tags are dropped and the mappings kept. */
function loadYaml(text: string): unknown {
  try {
    return load(text);
  } catch {
    return load(text.replace(/!!python\/[^\s{[]+/g, ""));
  }
}
