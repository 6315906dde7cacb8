import { mkdir, open, rename, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import type { ArtifactSource } from "./client.js";
import { MlflowError } from "./errors.js";
import type { FileInfo } from "./schemas.js";
import type { MlflowTransport } from "./transport.js";

/** Bounds on walking a tree: a run with a million files is listed no further than this. */
export const WALK_LIMITS = { maxEntries: 5000, maxDepth: 12 };

/**
 * Every file under `root` (one listing call per directory, as OSS lists one level). A root that is itself a
 * file comes back as that one file; a root that does not exist is a 404 naming it.
 */
export async function walkFiles(source: ArtifactSource, root = "", limits = WALK_LIMITS): Promise<FileInfo[]> {
  const files: FileInfo[] = [];
  const queue: { path: string; depth: number }[] = [{ path: root, depth: 0 }];
  let entries = 0;
  while (queue.length > 0) {
    const { path, depth } = queue.shift()!;
    const listed = await source.list(path);
    if (path === root && root !== "" && listed.length === 0) return [await singleFile(source, root)];
    for (const entry of listed) {
      if (++entries > limits.maxEntries) return files;
      if (!entry.is_dir) files.push(entry);
      else if (depth + 1 < limits.maxDepth) queue.push({ path: entry.path, depth: depth + 1 });
    }
  }
  return files;
}

/** `root` listed empty: it is either a file (found in its parent's listing) or missing. */
async function singleFile(source: ArtifactSource, path: string): Promise<FileInfo> {
  const parent = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  const match = (await source.list(parent)).find((f) => f.path === path);
  if (match && !match.is_dir) return match;
  throw new MlflowError("MLFLOW_NOT_FOUND", `artifact path '${path}' was not found in ${source.label} (or it is an empty directory)`);
}

/** Reads a document (report, CSV, YAML) into memory, under the per-document cap. */
export async function readDocument(http: MlflowTransport, source: ArtifactSource, file: FileInfo): Promise<Uint8Array> {
  const what = `${source.label}: '${file.path}'`;
  http.budget.admit(file.file_size, what, http.budget.documentCap);
  const opened = await source.open(file.path);
  try {
    return await http.readBody(opened, what);
  } finally {
    opened.release();
  }
}

/**
 * Streams a file to `target` (a path the caller made inside the workspace) under the per-file and per-request
 * caps. Bytes go to `<target>.part`, renamed only when complete, and the part file is removed on any failure,
 * so no half file survives.
 */
export async function saveFile(http: MlflowTransport, source: ArtifactSource, file: FileInfo, target: string): Promise<string> {
  const what = `${source.label}: '${file.path}'`;
  const cap = http.budget.fileCap;
  http.budget.admit(file.file_size, what, cap);
  await mkdir(dirname(target), { recursive: true });
  const part = `${target}.part`;
  const handle = await open(part, "wx");
  try {
    const opened = await source.open(file.path);
    try {
      let received = 0;
      for await (const chunk of http.chunks(opened, what)) {
        http.budget.take(chunk.byteLength, received, what, cap);
        received += chunk.byteLength;
        await handle.write(chunk);
      }
    } finally {
      opened.release();
    }
    await handle.close();
    await rename(part, target);
    return target;
  } catch (err) {
    await handle.close().catch(() => undefined);
    await unlink(part).catch(() => undefined);
    throw err;
  }
}
