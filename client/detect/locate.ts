import { stat } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { type FoundFile, listRunFiles } from "./walk.js";

/** A file not used, and why. `problem` ones (unreadable, unrecognized when named) stop the run under --strict. */
export interface Skipped {
  source: string;
  reason: string;
  problem: boolean;
}

export interface Located {
  file: FoundFile;
  /** Named on the command line (an unrecognized one is a problem, not noise). */
  named: boolean;
  /** Where the file sits relative to the current directory, for messages. */
  shown: string;
}

/**
 * The files of the paths named on the command line: a folder's run files (walk.ts), a file as itself. A path that
 * cannot be read, or a subfolder that cannot, is listed in `skipped` and the rest is read.
 */
export async function locate(paths: readonly string[], skipped: Skipped[]): Promise<Located[]> {
  const out: Located[] = [];
  for (const p of paths) {
    try {
      const info = await stat(p);
      if (info.isDirectory()) {
        const shown = (rel: string) => `${p.replace(/\/$/, "")}/${rel}`;
        const unreadable = (dir: string, err: unknown) => skipped.push({ source: `${shown(dir)}/`, reason: `${reasonOf(err)}; the rest of ${p} is analysed`, problem: true });
        for (const file of await listRunFiles(p, unreadable)) out.push({ file, named: false, shown: shown(file.relative) });
      } else {
        out.push({ file: { path: resolve(p), relative: basename(p), size: info.size }, named: true, shown: p });
      }
    } catch (err) {
      skipped.push({ source: p, reason: reasonOf(err), problem: true });
    }
  }
  return out;
}

/** A file-system error as a clause a person reads: "no such file", "permission denied". */
export function reasonOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "no such file or folder";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "is a folder";
  return (err as Error).message;
}
