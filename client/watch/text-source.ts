import { open } from "node:fs/promises";
import { basename, relative, sep } from "node:path";
import type { FoundFile } from "../detect/walk.js";
import { hasLogSeries, JSONL_NAME } from "../detect/text-metrics.js";

/** A growing text file whose metrics a watch can follow: JSON lines, or a printed training log. */
export interface TextSource {
  kind: "jsonl" | "log";
  label: string;
  path: string;
}

/** Bytes of a log's head tried for a known line style before the file is passed over (until the next poll). */
const HEAD_BYTES = 64 << 10;
const LOG_NAME = /\.(log|txt|out)$/i;

/** The first bytes of a file as text ("" when unreadable): enough to tell a log by its header or first lines. */
export async function readHead(path: string, bytes: number): Promise<string> {
  const fh = await open(path, "r").catch(() => null);
  if (!fh) return "";
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead).toString("utf8");
  } finally {
    await fh.close();
  }
}

/**
 * The JSON-lines log of a run folder (log.jsonl, metrics.jsonl), else its printed output (train.log, nohup.out)
 * once a line of it is in a style the service reads metrics from; null while there is neither.
 */
export async function findTextSource(root: string, files: readonly FoundFile[]): Promise<TextSource | null> {
  const rel = (f: FoundFile) => relative(root, f.path).split(sep).join("/");
  const jsonl = files.find((f) => JSONL_NAME.test(basename(f.path)) && f.size > 0);
  if (jsonl) return { kind: "jsonl", label: `${rel(jsonl)} (JSON lines)`, path: jsonl.path };
  for (const f of files) {
    if (!LOG_NAME.test(basename(f.path)) || f.size === 0) continue;
    if (hasLogSeries(await readHead(f.path, HEAD_BYTES))) return { kind: "log", label: `${rel(f)} (printed training log)`, path: f.path };
  }
  return null;
}
