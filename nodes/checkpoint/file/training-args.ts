import { open } from "node:fs/promises";
import { readPickle } from "./pickle-machine.js";
import { PyCall, PyDict, type PyValue } from "./pickle-values.js";
import { readZipDirectory, readZipEntry } from "./zip.js";

/** TrainingArguments pickles are a few KiB; anything larger is not one. */
const MAX_ARGS_PICKLE = 1 << 20;

/** A field's plain value; an enum member (OptimizerNames.ADAMW_TORCH, pickled as a call on its value) becomes that value. */
function scalarOf(v: PyValue): unknown {
  if (v === null || typeof v !== "object") return v;
  if (v instanceof PyCall && v.args.length === 1 && (typeof v.args[0] === "string" || typeof v.args[0] === "number")) return v.args[0];
  return null;
}

/**
 * The fields of the Hugging Face Trainer's `training_args.bin` (a torch.save zip holding a pickled TrainingArguments
 * dataclass): learning_rate, optim, warmup, batch sizes… read by the inert pickle reader, never unpickled. Nested
 * values read as null. `{}` when the file holds no such pickle.
 */
export async function readTrainingArguments(path: string): Promise<Record<string, unknown>> {
  const fh = await open(path, "r");
  try {
    const entries = await readZipDirectory(fh, (await fh.stat()).size);
    const pickle = entries.find((e) => e.name.endsWith("/data.pkl"));
    if (!pickle) return {};
    const root = readPickle(await readZipEntry(fh, pickle, MAX_ARGS_PICKLE)).value;
    const state = root instanceof PyCall && root.state instanceof PyDict ? root.state : null;
    return state ? Object.fromEntries(state.entries.flatMap(([k, v]) => (typeof k === "string" ? [[k, scalarOf(v)]] : []))) : {};
  } finally {
    await fh.close();
  }
}
