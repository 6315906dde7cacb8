/**
 * Widely used ML and data libraries whose classes ordinary model pickles import: scikit-learn estimators,
 * boosting models' sklearn wrappers, NumPy/SciPy/pandas containers, whole PyTorch/Ultralytics/timm models.
 * Loading such a pickle runs that library's own code (`__setstate__`, `__reduce__` callables), which is as trusted
 * as the library itself, but only for the version that wrote the file. The dangerous names inside these libraries
 * (numpy.load, torch.load, numpy.f2py…) are graded by the deny list first, in pickle-policy.ts.
 */
import { PyCall, PyDict, type PyValue, PyTuple } from "./pickle-values.js";

/** Top-level module → the library's name as users know it. */
const LIBRARIES: Record<string, string> = {
  sklearn: "scikit-learn",
  xgboost: "XGBoost",
  lightgbm: "LightGBM",
  catboost: "CatBoost",
  scipy: "SciPy",
  numpy: "NumPy",
  pandas: "pandas",
  torch: "PyTorch",
  torchvision: "torchvision",
  ultralytics: "Ultralytics",
  timm: "timm",
};

/**
 * The wrapper `joblib.dump` writes in place of each numpy array (the array's bytes follow it in the file, read by
 * joblib-arrays.ts): the one joblib name that only carries data. Everything else under joblib stays on the deny
 * list (joblib.load unpickles another file).
 */
export const JOBLIB_ARRAY_WRAPPER = "joblib.numpy_pickle.NumpyArrayWrapper";

/** The library whose code an import runs, or null when it belongs to none of the known ones. */
export function libraryOf(module: string, name: string): string | null {
  if (`${module}.${name}` === JOBLIB_ARRAY_WRAPPER) return "joblib";
  return LIBRARIES[module.split(".")[0]!] ?? null;
}

/** A library version the pickle records about itself. */
export interface RecordedVersion {
  library: string;
  version: string;
}

const MAX_WALK = 200_000;

/**
 * Versions the pickle records: scikit-learn stores `_sklearn_version` in every estimator's state
 * (BaseEstimator.__getstate__), Ultralytics a top-level `version` beside the model. One entry per library and
 * version, in the order first met.
 */
export function recordedVersions(root: PyValue, libraries: ReadonlySet<string>): RecordedVersion[] {
  const found = new Map<string, RecordedVersion>();
  const note = (library: string, v: PyValue | undefined) => {
    if (typeof v === "string" && v.length <= 64) found.set(`${library}\n${v}`, { library, version: v });
  };
  if (libraries.has("Ultralytics") && root instanceof PyDict) note("Ultralytics", root.get("version"));
  const seen = new Set<object>();
  const stack: PyValue[] = [root];
  for (let steps = 0; stack.length > 0 && steps < MAX_WALK; steps++) {
    const v = stack.pop()!;
    if (v === null || typeof v !== "object" || seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) stack.push(...v);
    else if (v instanceof PyTuple) stack.push(...v.items);
    else if (v instanceof PyDict) {
      note("scikit-learn", v.get("_sklearn_version"));
      for (const [k, x] of v.entries) stack.push(k, x);
      if (v.state !== undefined) stack.push(v.state);
    } else if (v instanceof PyCall) {
      stack.push(...v.args, ...v.appended);
      for (const [k, x] of v.items) stack.push(k, x);
      if (v.state !== undefined) stack.push(v.state);
    }
  }
  return [...found.values()];
}
