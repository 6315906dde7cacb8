import { type Finding, type Severity, severityRank } from "../../../domain/result.js";
import { detectorFinding } from "../../findings.js";
import type { LoadCode } from "../file/scan-types.js";
import { gradeLoadCode } from "../load-code-policy.js";
import type { CheckpointInfo } from "../table.js";

const KIND_TEXT: Record<LoadCode["kind"], string> = {
  keras_lambda: "Keras Lambda layer",
  keras_custom_object: "custom Keras object",
  tf_op: "TensorFlow operation",
  onnx_custom_domain: "ONNX operator of a custom domain",
};

const ACTION: Record<LoadCode["kind"], string> = {
  keras_lambda: "Load it only with keras.saving.load_model(..., safe_mode=True) (the default), which refuses Lambda bytecode; rebuild the layer in code you control and load the weights alone.",
  keras_custom_object: "Load it only where the named modules are code you trust, passing them as custom_objects; otherwise load the weights alone into a model you build.",
  tf_op: "Do not serve or call this SavedModel until you know why it reads or writes files; re-export it from code you control.",
  onnx_custom_domain: "Run it only with an operator library you trust for that domain; ask the producer which library implements it.",
};

/** CK-01 for model files: code a Keras, SavedModel or ONNX file runs or needs when loaded, graded by the load-code policy. */
export function detectLoadCode(info: CheckpointInfo): Finding[] {
  if (info.loadCode.length === 0) return [];
  const graded = info.loadCode.map((c) => ({ c, severity: gradeLoadCode(c) }));
  const severity = graded.reduce<Severity>((worst, g) => (severityRank(g.severity) < severityRank(worst) ? g.severity : worst), "info");
  const top = graded.filter((g) => g.severity === severity);
  const kind = top[0]!.c.kind;
  const named = top.slice(0, 4).map(({ c }) => `${c.name} in ${c.where || "the model"} (${c.detail})`).join("; ");
  return [detectorFinding({
    id: "checkpoint.code_on_load",
    title: severity === "critical" ? "Model file holds code that runs when it is loaded" : `Model file needs code that is not in it (${KIND_TEXT[kind]})`,
    description: `${graded.length} ${graded.length === 1 ? "item" : "items"} of load-time code: ${named}${top.length > 4 ? "…" : ""}.`,
    evidence: graded.slice(0, 12).map(({ c, severity: s }) => ({
      rule_id: "CK-01", artifact: `model_checkpoint_artifacts.checkpoint_path:${c.where}`,
      text: `${KIND_TEXT[c.kind]} ${c.name} in ${c.where || "the model"}: ${c.detail} (${s}).`, observed: c.name,
    })),
    severity,
    confidence: severity === "critical" ? 0.9 : 0.7,
    recommendation: { action: ACTION[kind], rationale: "Code stored in or named by a model file runs with the loading process's rights; modelscan flags Lambda layers and file-reading TensorFlow ops for this reason.", category: "infrastructure", effort: "low" },
  })];
}
