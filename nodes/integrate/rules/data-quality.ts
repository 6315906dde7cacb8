import type { CrossRule } from "../evidence.js";
import { crossFinding } from "./common.js";

/** XA-06: a non-finite loss while the data itself holds NaN/Inf: the root cause is the data. */
export const detectNanFromData: CrossRule = (ev) => {
  const loss = ev.get("training.nonfinite_loss");
  const dataNan = ev.get("dataset.nonfinite_features");
  const checkCols = ev.facts.checks?.nonfinite_columns ?? [];
  if (!loss || (!dataNan && !ev.facts.dataset?.has_nonfinite_features && checkCols.length === 0)) return [];
  return [
    crossFinding({
      name: "nan_from_data",
      rule: "XA-06",
      title: "Non-finite loss traced to non-finite input data",
      description: `The loss became non-finite and the data contains NaN or infinite values${checkCols.length ? ` (${checkCols.slice(0, 5).join(", ")})` : ""}: clean the inputs before tuning the optimizer.`,
      severity: "critical",
      basedOn: [loss, dataNan],
      baseConfidence: 0.7,
      evidence: checkCols.length ? [{ artifact: "checks_artifacts", text: `Checks report non-finite or null values in ${checkCols.join(", ")}.` }] : [],
      recommendation: {
        action: "Impute or drop the non-finite values (fit imputation on train only) and assert finiteness in the data pipeline.",
        rationale: "One NaN input makes the whole batch's loss NaN; no learning-rate change fixes that.",
        category: "data",
        effort: "low",
      },
    }),
  ];
};

const STUCK = ["training.no_learning", "training.vanishing_gradients", "training.plateau", "training.underfitting"];

/** XA-07: unnormalized inputs together with a model that does not learn: normalize first. */
export const detectUnnormalizedAndStuck: CrossRule = (ev) => {
  const unnormalized = ev.get("dataset.unnormalized_inputs");
  const stuck = STUCK.map((id) => ev.get(id)).find(Boolean);
  if (!stuck || (!unnormalized && !ev.facts.dataset?.has_unnormalized_inputs)) return [];
  return [
    crossFinding({
      name: "unnormalized_and_stuck",
      rule: "XA-07",
      title: "Training stalls on unnormalized inputs",
      description: `${stuck.title} while the input features are not normalized: large, unequal feature scales slow or stall gradient descent. Normalizing is the cheapest fix to try first.`,
      severity: "high",
      basedOn: [stuck, unnormalized],
      baseConfidence: 0.65,
      recommendation: {
        action: "Standardize inputs with statistics fitted on train (zero mean, unit variance) before changing the model or optimizer.",
        rationale: "Badly scaled inputs make the loss surface ill-conditioned, so a single learning rate fits no direction well.",
        category: "data",
        effort: "low",
      },
    }),
  ];
};

/** XA-08: label noise in the data and a training plateau: the noise caps achievable accuracy. */
export const detectNoisyLabelsCeiling: CrossRule = (ev) => {
  const noise = ev.get("dataset.label_noise") ?? ev.get("dataset.conflicting_labels");
  const ceiling = ev.get("training.plateau") ?? ev.get("training.underfitting");
  if (!noise || !ceiling) return [];
  return [
    crossFinding({
      name: "noisy_labels_ceiling",
      rule: "XA-08",
      title: "Label noise likely caps the achievable score",
      description: `${noise.title} and ${ceiling.title.toLowerCase()}: with noisy labels a larger model or longer training mostly memorizes the noise.`,
      severity: "medium",
      basedOn: [noise, ceiling],
      recommendation: {
        action: "Clean the labels (confident learning, review of flagged examples) before scaling the model.",
        rationale: "The error rate of the labels bounds the accuracy any model can show on them.",
        category: "data",
        effort: "high",
      },
    }),
  ];
};

export const DATA_QUALITY_RULES: readonly CrossRule[] = [detectNanFromData, detectUnnormalizedAndStuck, detectNoisyLabelsCeiling];
