import type { Evidence } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type DatasetDetector, featureColumns } from "../detector.js";
import { fmt } from "../../../artifacts/json-values.js";

/** Channel means or stds above this are on a 0–255 pixel scale, not scaled to [0, 1] or standardized. */
const RAW_PIXEL_LEVEL = 1.5;
const STD_RATIO = 100;

/**
 * DS-12: image channels still on the 0–255 scale (medium: networks train poorly on them); tabular numeric
 * features whose standard deviations differ more than 100× (info: harmless for trees, and most pipelines
 * standardize later, but a network fed these raw values trains poorly).
 */
export const unnormalizedInputs: DatasetDetector = {
  info: {
    id: "dataset.unnormalized_inputs",
    rule: "DS-12",
    title: "Inputs not normalized",
    threshold: "image channel mean/std > 1.5 (0–255 scale) → medium; numeric feature std ratio > 100 → info",
    severities: ["medium", "info"],
    basis: "LeCun et al. 1998 Efficient BackProp [K37]; SageMaker CheckInputImages; UMLAUT/DeepDiagnosis 'normalize the data'",
  },
  detect(stats) {
    const raw = Object.entries(stats.channels).filter(([, ch]) => [...ch.mean, ...ch.std].some((v) => Number.isFinite(v) && v > RAW_PIXEL_LEVEL));
    if (raw.length) {
      const evidence: Evidence[] = raw.map(([split, ch]) => ({
        rule_id: this.info.rule,
        artifact: ch.path,
        text: `${split} channel means [${ch.mean.map(fmt).join(", ")}], stds [${ch.std.map(fmt).join(", ")}]: pixel scale, not [0, 1] or standardized.`,
        observed: Math.max(...ch.mean),
        threshold: RAW_PIXEL_LEVEL,
      }));
      return [
        detectorFinding({
          id: this.info.id,
          title: "Image inputs are not scaled",
          description: "Channel statistics are on the raw 0–255 pixel scale. Unscaled inputs slow or stall the training of neural networks.",
          evidence,
          severity: "medium",
          confidence: scoreConfidence({ strength: 2, threshold: 1, benignPossible: true }),
          recommendation: { action: "Scale pixels to [0, 1] and standardize per channel with the training-set mean and std (e.g. transforms.Normalize).", rationale: "Zero-mean, unit-variance inputs keep activations and gradients in a trainable range (LeCun et al. 1998).", category: "data", effort: "low" },
        }),
      ];
    }
    const numeric = featureColumns(stats).filter((c) => c.kind === "numeric" && c.std !== null && Number.isFinite(c.std) && c.std > 0);
    if (numeric.length < 2) return [];
    const widest = numeric.reduce((a, b) => (b.std! > a.std! ? b : a));
    const narrowest = numeric.reduce((a, b) => (b.std! < a.std! ? b : a));
    const ratio = widest.std! / narrowest.std!;
    if (ratio <= STD_RATIO) return [];
    return [
      detectorFinding({
        id: this.info.id,
        title: "Feature scales differ widely",
        description: `Numeric features are on very different scales: "${widest.name}" has std ${fmt(widest.std!)} against ${fmt(narrowest.std!)} for "${narrowest.name}" (${fmt(Math.round(ratio))}×). Fine for tree models; a neural network needs them standardized.`,
        evidence: [
          { rule_id: this.info.rule, artifact: widest.path, text: `std ratio ${fmt(Math.round(ratio))}× between "${widest.name}" and "${narrowest.name}" (threshold ${STD_RATIO}×).`, observed: Math.round(ratio), threshold: STD_RATIO, values: { widest: widest.name, narrowest: narrowest.name } },
        ],
        severity: "info",
        confidence: scoreConfidence({ strength: ratio, threshold: STD_RATIO, benignPossible: true }),
        recommendation: { action: "Standardize numeric features with statistics fitted on train (e.g. a StandardScaler inside the pipeline) if the model is a neural network or uses distances.", rationale: "Gradient-based models converge slowly when feature scales differ by orders of magnitude (LeCun et al. 1998).", category: "data", effort: "low" },
      }),
    ];
  },
};
