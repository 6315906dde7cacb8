import { type DType, normalizeDType, STORAGE_DTYPES } from "./dtypes.js";
import { PyCall, PyDict, PyGlobal, PyPersistent, PyTuple, type PyValue } from "./pickle-values.js";
import type { TensorGroup, TrainingState } from "./scan-types.js";

/** A tensor recovered from a torch pickle: where its storage is and how it views it. */
export interface TorchTensorRef {
  name: string;
  group: TensorGroup;
  storageKey: string;
  storageType: string;
  dtype: DType | null;
  location: string;
  /** Elements in the storage (legacy files: bytes for UntypedStorage). */
  storageNumel: number | null;
  offset: number;
  shape: number[];
  stride: number[];
  requiresGrad: boolean | null;
}

const REBUILD = new Set(["torch._utils._rebuild_tensor", "torch._utils._rebuild_tensor_v2", "torch._utils._rebuild_tensor_v3"]);
const PARAMETER = new Set(["torch._utils._rebuild_parameter", "torch._utils._rebuild_parameter_with_state"]);
const OPTIMIZER_KEYS = new Set(["optimizer_states", "optimizer", "optimizers", "optimizer_state_dict", "optim", "opt"]);
const MODEL_KEYS = new Set(["state_dict", "model", "model_state_dict", "model_state", "module", "net", "weights", "params"]);

/** Keys of torch's RNG snapshot (HF Trainer `rng_state.pth`, Accelerate `random_states_*.pkl`). */
const RNG_KEYS = new Set(["python", "numpy", "cpu", "cuda", "mps", "xla", "npu", "hpu", "xpu", "mlu", "musa"]);
/** Keys every torch LR scheduler's state_dict() carries. */
const SCHEDULER_KEYS = ["base_lrs", "last_epoch", "_step_count"];

/**
 * What a pickled training-state file is, told by its root's keys rather than its name: an optimizer's
 * state_dict() (`state` + `param_groups`: Adam moments, not weights), an LR scheduler's state_dict(), or an RNG
 * snapshot. Null for model weights and for full checkpoints that hold weights beside their optimizer state.
 */
export function trainingStateOf(root: PyValue | null): TrainingState | null {
  if (!(root instanceof PyDict)) return null;
  const keys = root.stringKeys();
  if (root.has("state") && root.has("param_groups")) return "optimizer";
  if (SCHEDULER_KEYS.filter((k) => root.has(k)).length >= 2) return "scheduler";
  if (keys.length > 0 && keys.every((k) => RNG_KEYS.has(k)) && (root.has("cpu") || root.has("python"))) return "rng_state";
  return null;
}

const ints = (v: PyValue | undefined): number[] =>
  v instanceof PyTuple ? v.items.filter((x): x is number => typeof x === "number") : Array.isArray(v) ? v.filter((x): x is number => typeof x === "number") : [];

/** The storage tuple of a BINPERSID: ("storage", torch.<Type>Storage, key, location, numel[, view]). */
function storageOf(v: PyValue | undefined): { key: string; type: string; location: string; numel: number | null } | null {
  if (!(v instanceof PyPersistent) || !(v.pid instanceof PyTuple)) return null;
  const [tag, type, key, location, numel] = v.pid.items;
  if (tag !== "storage") return null;
  return {
    key: typeof key === "string" ? key : String(key),
    type: type instanceof PyGlobal ? type.name : String(type),
    location: typeof location === "string" ? location : "",
    numel: typeof numel === "number" ? numel : null,
  };
}

/** The tensor a rebuild call describes, unwrapping Parameter and subclass rebuilds. */
function tensorOf(call: PyCall): Omit<TorchTensorRef, "name" | "group"> | null {
  const fn = call.calleeName ?? "";
  if (PARAMETER.has(fn) && call.args[0] instanceof PyCall) {
    const inner = tensorOf(call.args[0]);
    return inner && { ...inner, requiresGrad: typeof call.args[1] === "boolean" ? call.args[1] : inner.requiresGrad };
  }
  if (fn === "torch._tensor._rebuild_from_type_v2" && call.args[2] instanceof PyTuple) {
    return tensorOf(new PyCall(call.args[0] ?? null, call.args[2].items));
  }
  if (!REBUILD.has(fn)) return null;
  const storage = storageOf(call.args[0]);
  if (!storage) return null;
  const explicit = fn.endsWith("_v3") && call.args[6] instanceof PyGlobal ? normalizeDType(call.args[6].name) : null;
  return {
    storageKey: storage.key,
    storageType: storage.type,
    dtype: explicit ?? STORAGE_DTYPES[storage.type] ?? null,
    location: storage.location,
    storageNumel: storage.numel,
    offset: typeof call.args[1] === "number" ? call.args[1] : 0,
    shape: ints(call.args[2]),
    stride: ints(call.args[3]),
    requiresGrad: typeof call.args[4] === "boolean" ? call.args[4] : null,
  };
}

function groupOf(path: readonly string[], inherited: TensorGroup): TensorGroup {
  const head = path[0];
  if (head !== undefined && path.length === 1 && OPTIMIZER_KEYS.has(head)) return "optimizer";
  if (head !== undefined && path.length === 1 && MODEL_KEYS.has(head)) return "model";
  return inherited;
}

/**
 * Walks the pickled object (a state dict, a Lightning checkpoint, or any nesting of dicts, lists and tuples)
 * and lists every tensor with its dotted path. A top-level `state_dict`/`model` prefix is dropped from model
 * tensor names so they read as state-dict keys.
 */
export function collectTorchTensors(root: PyValue): TorchTensorRef[] {
  const out: TorchTensorRef[] = [];
  // Ancestors only, not every node seen: a tied weight is one memoized object reached under two names.
  const ancestors = new Set<object>();
  const rootIsTensorMap = root instanceof PyDict && root.entries.some(([, v]) => v instanceof PyCall && tensorOf(v));
  const visit = (v: PyValue | undefined, path: string[], group: TensorGroup, depth: number) => {
    if (v === null || v === undefined || typeof v !== "object" || depth > 40 || ancestors.has(v) || out.length > 1_000_000) return;
    ancestors.add(v);
    visitChildren(v, path, group, depth);
    ancestors.delete(v);
  };
  const visitChildren = (v: object, path: string[], group: TensorGroup, depth: number) => {
    if (v instanceof PyCall) {
      const t = tensorOf(v);
      if (t) {
        const name = (group === "model" && path.length > 1 && MODEL_KEYS.has(path[0]!) ? path.slice(1) : path).join(".");
        out.push({ ...t, name, group });
        return;
      }
      for (const [k, x] of v.items) visit(x, [...path, String(k)], group, depth + 1);
      v.args.forEach((x, i) => visit(x, [...path, String(i)], group, depth + 1));
      if (v.state !== undefined) visit(v.state, path, group, depth + 1);
      return;
    }
    if (v instanceof PyDict) {
      for (const [k, x] of v.entries) {
        const next = [...path, typeof k === "string" || typeof k === "number" ? String(k) : "?"];
        visit(x, next, groupOf(next, group), depth + 1);
      }
      return;
    }
    const items = Array.isArray(v) ? v : v instanceof PyTuple ? v.items : null;
    items?.forEach((x, i) => visit(x, [...path, String(i)], group, depth + 1));
  };
  const state = trainingStateOf(root);
  visit(root, [], state === "optimizer" ? "optimizer" : state !== null ? "other" : rootIsTensorMap ? "model" : "other", 0);
  return state === null && out.every((t) => t.group === "other") ? out.map(asModuleTensor) : out;
}

/** Attribute segments of a pickled nn.Module (`torch.save(model)`), absent from state-dict keys. */
const MODULE_ATTRIBUTES = new Set(["_modules", "_parameters", "_buffers"]);

/** With no state dict or optimizer in sight the file is a whole pickled model: its tensors are the model's. */
function asModuleTensor(t: TorchTensorRef): TorchTensorRef {
  return { ...t, group: "model", name: t.name.split(".").filter((s) => !MODULE_ATTRIBUTES.has(s)).join(".") };
}

/** Whether a strided view reads exactly `numel` consecutive elements from its offset (a permutation of them). */
export function spanOf(ref: Pick<TorchTensorRef, "shape" | "stride">): number {
  if (ref.shape.some((d) => d === 0)) return 0;
  if (ref.stride.length !== ref.shape.length) return ref.shape.reduce((a, b) => a * b, 1);
  return 1 + ref.shape.reduce((acc, d, i) => acc + (d - 1) * Math.abs(ref.stride[i]!), 0);
}
