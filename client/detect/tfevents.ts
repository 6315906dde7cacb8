import { readFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import { SeriesBuilder } from "../../nodes/training/parse/series-builder.js";
import { readTfEvents } from "../../nodes/training/parse/tfevents.js";

/** An event file of a run. */
export interface EventFile {
  path: string;
  /** Relative to the folder given: its subfolder (`train/`, `validation/`) tells the split. */
  relative: string;
}

/** Keras' TensorBoard callback writes one subfolder per split with the same tags (`epoch_loss`) in each. */
const SPLIT_PREFIX: Record<string, string> = { train: "", validation: "val_", eval: "val_", val: "val_", test: "test_" };

/**
 * `training_artifacts.metrics` for a run's event files. One file is sent as it is (`tfevents`, base64): the
 * service reads it. Several (Keras writes `train/` and `validation/`) are read here with the service's own
 * reader, because their tags collide, and sent as named series: `validation/epoch_loss` → `val_loss`.
 */
export function metricsFromEventFiles(files: readonly EventFile[]): unknown {
  const [only] = files;
  if (files.length === 1 && only) return { format: "tfevents", content_base64: readFileSync(only.path).toString("base64") };
  const out: Record<string, Array<{ step: number; value: number; timestamp?: number }>> = {};
  for (const file of files) {
    const split = basename(dirname(file.relative));
    const prefix = SPLIT_PREFIX[split] ?? `${split}/`;
    const builder = new SeriesBuilder();
    readTfEvents(new Uint8Array(readFileSync(file.path)), builder);
    for (const series of builder.finish().values()) {
      const tag = (series.sources[0] ?? series.name).replace(/^epoch_/, "");
      const points = (out[`${prefix}${tag}`] ??= []);
      for (let i = 0; i < series.steps.length; i++) points.push({ step: series.steps[i]!, value: series.values[i]! });
    }
  }
  return out;
}
