import { describe, expect, it } from "vitest";
import { classifyGlobal, TIER_SEVERITY, worstTier } from "../../../nodes/checkpoint/file/pickle-policy.js";

/** The trust policy's grading table, read in one place: import → tier → severity. */
describe("pickle trust tiers", () => {
  it.each([
    ["sklearn.ensemble._forest", "RandomForestClassifier", "scikit-learn"], ["sklearn.tree._tree", "Tree", "scikit-learn"],
    ["xgboost.sklearn", "XGBClassifier", "XGBoost"], ["lightgbm.sklearn", "LGBMClassifier", "LightGBM"],
    ["catboost.core", "CatBoostClassifier", "CatBoost"], ["scipy.sparse._csr", "csr_matrix", "SciPy"],
    ["numpy.random._pickle", "__randomstate_ctor", "NumPy"], ["pandas.core.frame", "DataFrame", "pandas"],
    ["pandas._libs.internals", "_unpickle_block", "pandas"], ["ultralytics.nn.tasks", "DetectionModel", "Ultralytics"],
    ["timm.models.resnet", "ResNet", "timm"], ["torch.nn.modules.conv", "Conv2d", "PyTorch"],
    ["joblib.numpy_pickle", "NumpyArrayWrapper", "joblib"],
  ])("%s.%s is a known library's class (%s) → low", (module, name, library) => {
    expect(classifyGlobal(module, name)).toMatchObject({ safety: "library", danger: null, library });
    expect(TIER_SEVERITY.library).toBe("low");
  });

  it.each([
    ["joblib", "load"], ["joblib.numpy_pickle", "load"], ["numpy", "load"], ["numpy.f2py", "compile"], ["torch", "load"],
    ["torch.hub", "load"], ["pandas", "read_pickle"], ["pandas.io.pickle", "read_pickle"], ["pandas", "eval"],
    ["numpy.testing._private.utils", "runstring"], ["torch.serialization", "load"],
  ])("%s.%s inside a known library stays dangerous → critical", (module, name) => {
    expect(classifyGlobal(module, name)).toMatchObject({ safety: "dangerous", library: null });
    expect(TIER_SEVERITY.dangerous).toBe("critical");
  });

  it.each([["__main__", "MyModel"], ["mypackage.models", "Net"], ["sklearnx", "Model"], ["torch._utils", "_load_from_bytes"]])("%s.%s is unknown → medium", (module, name) => {
    expect(classifyGlobal(module, name)).toMatchObject({ safety: "suspicious", library: null });
    expect(TIER_SEVERITY.suspicious).toBe("medium");
  });

  it("grades a pickle by its worst import, and by what it could not read", () => {
    const p = (safeties: Array<"dangerous" | "suspicious" | "library" | "safe">, extra: Partial<{ extCodes: number[]; error: string | null; partial: boolean }> = {}) => ({
      globals: safeties.map((safety) => ({ safety })), extCodes: [], error: null, partial: false, ...extra,
    });
    expect(worstTier([p(["safe", "library"])])).toBe("library");
    expect(worstTier([p(["safe"])])).toBe("safe");
    expect(worstTier([p(["library"]), p(["suspicious"])])).toBe("suspicious");
    expect(worstTier([p(["library", "suspicious", "dangerous"])])).toBe("dangerous");
    expect(worstTier([p(["library"], { extCodes: [257] })])).toBe("suspicious");
    expect(worstTier([p(["library"], { error: "pickle truncated at byte 9" })])).toBe("suspicious");
    expect(worstTier([p(["safe"], { partial: true })])).toBe("suspicious");
    expect(worstTier([])).toBe("safe");
  });
});
