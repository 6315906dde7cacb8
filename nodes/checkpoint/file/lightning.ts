import { PyCall, PyDict, type PyValue, toPlain } from "./pickle-values.js";

/** A callback's recorded score: a number, or the name of the 0-d tensor that holds it (read after the scan). */
export type ScoreRef = { value: number } | { tensor: string } | null;

/** What a Lightning checkpoint's top-level dict says about the run (FORMATS.md §6.5). */
export interface LightningState {
  epoch: number | null;
  globalStep: number | null;
  version: string | null;
  hyperParameters: Record<string, unknown> | null;
  hasOptimizerStates: boolean;
  optimizerCount: number;
  hasLrSchedulers: boolean;
  hasLoops: boolean;
  modelCheckpoint: {
    monitor: string | null;
    mode: string | null;
    bestModelScore: ScoreRef;
    bestModelPath: string | null;
    lastModelPath: string | null;
  } | null;
  earlyStopping: {
    monitor: string | null;
    waitCount: number | null;
    stoppedEpoch: number | null;
    patience: number | null;
    bestScore: ScoreRef;
  } | null;
}

const num = (v: PyValue | undefined) => (typeof v === "number" ? v : null);
const str = (v: PyValue | undefined) => (typeof v === "string" && v.length > 0 ? v : null);

/** `"ModelCheckpoint{'monitor': 'val_loss', 'mode': 'min', …}"` → its monitor and mode. */
function stateKeyField(key: string, field: string): string | null {
  return new RegExp(`'${field}': '([^']*)'`).exec(key)?.[1] ?? null;
}

function dictOf(v: PyValue | undefined): PyDict | null {
  if (v instanceof PyDict) return v;
  if (v instanceof PyCall && v.items.length > 0) {
    const d = new PyDict();
    d.entries.push(...v.items);
    return d;
  }
  return null;
}

function scoreOf(v: PyValue | undefined, path: string): ScoreRef {
  if (typeof v === "number") return { value: v };
  return v instanceof PyCall ? { tensor: path } : null;
}

/** Lightning's top-level keys, or null when the dict is not a Lightning checkpoint. */
export function readLightningState(root: PyValue): LightningState | null {
  if (!(root instanceof PyDict)) return null;
  const looksLightning = root.has("pytorch-lightning_version") || (root.has("epoch") && root.has("global_step") && root.has("state_dict"));
  if (!looksLightning) return null;
  const optimizers = root.get("optimizer_states");
  const state: LightningState = {
    epoch: num(root.get("epoch")),
    globalStep: num(root.get("global_step")),
    version: str(root.get("pytorch-lightning_version")),
    hyperParameters: ((): Record<string, unknown> | null => {
      const plain = toPlain(root.get("hyper_parameters"));
      return plain && typeof plain === "object" && !Array.isArray(plain) ? (plain as Record<string, unknown>) : null;
    })(),
    hasOptimizerStates: Array.isArray(optimizers) && optimizers.length > 0,
    optimizerCount: Array.isArray(optimizers) ? optimizers.length : 0,
    hasLrSchedulers: Array.isArray(root.get("lr_schedulers")),
    hasLoops: root.has("loops"),
    modelCheckpoint: null,
    earlyStopping: null,
  };
  const callbacks = dictOf(root.get("callbacks"));
  for (const [key, value] of callbacks?.entries ?? []) {
    if (typeof key !== "string") continue;
    const cb = dictOf(value);
    if (!cb) continue;
    const path = `callbacks.${key}`;
    if (key.startsWith("ModelCheckpoint") && !state.modelCheckpoint) {
      state.modelCheckpoint = {
        monitor: stateKeyField(key, "monitor") ?? str(cb.get("monitor")),
        mode: stateKeyField(key, "mode"),
        bestModelScore: scoreOf(cb.get("best_model_score"), `${path}.best_model_score`),
        bestModelPath: str(cb.get("best_model_path")),
        lastModelPath: str(cb.get("last_model_path")),
      };
    } else if (key.startsWith("EarlyStopping") && !state.earlyStopping) {
      state.earlyStopping = {
        monitor: stateKeyField(key, "monitor"),
        waitCount: num(cb.get("wait_count")),
        stoppedEpoch: num(cb.get("stopped_epoch")),
        patience: num(cb.get("patience")),
        bestScore: scoreOf(cb.get("best_score"), `${path}.best_score`),
      };
    }
  }
  return state;
}
