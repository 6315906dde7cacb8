import { statSync } from "node:fs";
import { access, constants, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { ClientError } from "../errors.js";
import type { Io } from "./io.js";

/**
 * Refuses an `--output` that cannot be written before any work is done (exit 2): a folder that does not exist, a
 * path that is a folder, a folder this user may not write into. Found after a long analysis, the same mistake
 * would lose the result and end as a crash.
 */
export async function checkOutputPath(path: string): Promise<void> {
  const target = resolve(path);
  const folder = dirname(target);
  const folderStat = statSync(folder, { throwIfNoEntry: false });
  if (!folderStat) throw new ClientError("USAGE", `--output ${path}: the folder ${folder} does not exist; create it first (mkdir -p)`);
  if (!folderStat.isDirectory()) throw new ClientError("USAGE", `--output ${path}: ${folder} is not a folder`);
  const existing = statSync(target, { throwIfNoEntry: false });
  if (existing?.isDirectory()) throw new ClientError("USAGE", `--output ${path} is a folder; give a file name, e.g. ${path.replace(/\/+$/, "")}/report.md`);
  try {
    await access(existing ? target : folder, constants.W_OK);
  } catch {
    throw new ClientError("USAGE", `--output ${path}: ${existing ? "the file" : `the folder ${folder}`} is not writable by this user`);
  }
}

/** Writes the rendered output to --output, or to stdout without it. */
export async function emitOutput(text: string, o: { output: string | null; format: string; quiet: boolean }, io: Io): Promise<void> {
  if (!o.output) {
    io.stdout.write(text);
    return;
  }
  try {
    await writeFile(o.output, text);
  } catch (err) {
    throw new ClientError("INPUT", `--output ${o.output}: cannot write (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (!o.quiet) io.stderr.write(`wrote ${o.format} to ${o.output}\n`);
}
