import { readFileSync } from "node:fs";

/** An event file of a run. */
export interface EventFile {
  path: string;
  /** Path inside the run's log folder: the service reads a `train/` or `validation/` folder as the split. */
  relative: string;
}

/**
 * `training_artifacts.metrics` for a run's event files, sent as they are for the service's own reader: one file as
 * `content_base64`, several (Keras writes `train/` and `validation/` with the same tags) as `files` with their
 * paths, which tell the split.
 */
export function metricsFromEventFiles(files: readonly EventFile[]): unknown {
  const encode = (f: EventFile) => readFileSync(f.path).toString("base64");
  const [only] = files;
  if (files.length === 1 && only) return { format: "tfevents", content_base64: encode(only) };
  return { format: "tfevents", files: files.map((f) => ({ path: f.relative, content_base64: encode(f) })) };
}
