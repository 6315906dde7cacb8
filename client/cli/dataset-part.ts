import { basename } from "node:path";
import { computeDatasetArtifacts, isDatasetError } from "../dataset/index.js";
import { ClientError } from "../errors.js";
import type { Palette } from "../render/colour.js";
import type { ArtifactPart } from "../request/build-request.js";
import type { Io } from "./io.js";

/** Steps shorter than this show no bar: a progress bar that flashes for a moment is noise. */
const BAR_AFTER_MS = 2000;
const BAR_WIDTH = 24;

/** A one-line bar on a terminal, redrawn in place, for steps that take longer than a couple of seconds. */
function progressBar(io: Io, p: Palette): { update: (step: string, done: number | null) => void; clear: () => void } {
  let stepStarted = 0;
  let drawn = false;
  const clear = () => {
    if (drawn) io.stderr.write("\r\x1b[2K");
    drawn = false;
  };
  return {
    update(step, done) {
      if (done === 0) stepStarted = Date.now();
      if (done === 1 || Date.now() - stepStarted < BAR_AFTER_MS) return clear();
      const share = Math.min(1, Math.max(0, done ?? 0));
      const full = Math.round(share * BAR_WIDTH);
      io.stderr.write(`\r\x1b[2K${p.dim(`  ${step} [${"#".repeat(full)}${".".repeat(BAR_WIDTH - full)}] ${done === null ? "…" : `${Math.round(share * 100)} %`}`)}`);
      drawn = true;
    },
    clear,
  };
}

/**
 * `--data [--test] [--target] [--time-column]`: the dataset artifact computed here from the files, as a part that comes after
 * the detected ones (so it wins over a dataset found in the paths). Bad input is an INPUT error (exit 2) naming
 * the file, column and line, and nothing is sent.
 */
export async function datasetPart(
  o: { data: string; test: string | null; target: string | null; timeColumn: string | null; quiet: boolean; progress: boolean | null },
  io: Io,
  p: Palette,
): Promise<ArtifactPart> {
  const bar = !o.quiet && o.progress !== false && io.stderr.isTTY ? progressBar(io, p) : null;
  try {
    const artifacts = await computeDatasetArtifacts({
      data: o.data,
      ...(o.test ? { test: o.test } : {}),
      ...(o.target ? { target: o.target } : {}),
      ...(o.timeColumn ? { timeColumn: o.timeColumn } : {}),
      ...(bar ? { onProgress: (step: string, done: number | null) => bar.update(step.replace(o.data, basename(o.data)).replace(o.test ?? "\0", basename(o.test ?? "")), done) } : {}),
    });
    if (!o.quiet) {
      const s = artifacts.statistics;
      io.stderr.write(`${p.dim(`dataset statistics of ${o.data}${o.test ? ` and ${o.test}` : ""}: ${s.num_rows.toLocaleString("en-US")} rows, ${Object.keys(s.columns).length} columns`)}\n`);
    }
    return { field: "dataset_artifacts", payload: artifacts, sources: [o.data, ...(o.test ? [o.test] : [])] };
  } catch (err) {
    if (isDatasetError(err)) throw new ClientError("INPUT", err.message);
    throw err;
  } finally {
    bar?.clear();
  }
}
