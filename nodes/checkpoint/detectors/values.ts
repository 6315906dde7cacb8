import type { Evidence, Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type CheckpointInfo, hasNonfiniteValues, nonfiniteCount, type TensorRecord } from "../table.js";
import { fanIn, fmt, isEmbedding, isWeight, listNames, tensorArtifact } from "./tensor-kinds.js";

/** "mean NaN, min -Infinity" from a client row's non-finite statistics, or "". */
function nonfiniteStatsText(t: TensorRecord): string {
  return Object.entries(t.values?.nonfiniteStats ?? {}).map(([k, v]) => `${k} ${String(v)}`).join(", ");
}

function nonfiniteEvidence(info: CheckpointInfo, t: TensorRecord) {
  const nan = t.values?.nanCount ?? 0;
  const inf = t.values?.infCount ?? 0;
  const stats = nonfiniteStatsText(t);
  const counted = nan + inf > 0;
  const text = counted
    ? `${t.name} (${t.group}) holds ${nan} NaN and ${inf} infinite values${stats ? ` (client statistics: ${stats})` : ""}.`
    : `${t.name} (${t.group}) holds NaN or infinite values: the client's statistics are non-finite (${stats}); no count was reported.`;
  const statValues = Object.fromEntries(Object.entries(t.values?.nonfiniteStats ?? {}).map(([k, v]) => [k, String(v)]));
  return {
    rule_id: "CK-02", artifact: tensorArtifact(info, t.name), text,
    observed: counted ? nan + inf : null, threshold: 0, values: { nan, inf, ...statValues },
  };
}

/** CK-02: any NaN or ±Inf in the checkpoint (weights, buffers or optimizer state), counted or told by non-finite client statistics. */
export function detectNonfiniteWeights(info: CheckpointInfo): Finding[] {
  const bad = info.tensors.filter(hasNonfiniteValues);
  const total = info.nanCount + info.infCount;
  if (total === 0 && bad.length === 0) return [];
  const evidence: Evidence[] = bad.slice(0, 8).map((t) => nonfiniteEvidence(info, t));
  if (evidence.length === 0) {
    evidence.push({ rule_id: "CK-02", artifact: tensorArtifact(info), text: `nan_count ${info.nanCount}, inf_count ${info.infCount} across ${info.tensorsWithNonfinite || "some"} tensors.`, observed: total, threshold: 0, values: { nan: info.nanCount, inf: info.infCount } });
  }
  const where = bad.length > 0 ? ` in ${bad.length} tensor${bad.length > 1 ? "s" : ""} (${listNames(bad, 3)})` : "";
  const uncounted = bad.filter((t) => nonfiniteCount(t) === 0).length;
  const what = total > 0
    ? `${info.nanCount} NaN and ${info.infCount} infinite values${where}`
    : `NaN or infinite values${where}`;
  const note = uncounted === 0 ? ""
    : uncounted === bad.length ? " (not counted by the client: its mean/min/max for them are non-finite)"
    : ` (${uncounted} of them not counted by the client: their mean/min/max are non-finite)`;
  // Adam moments are not weights, but non-finite moments are as fatal: the first resumed step writes NaN into
  // every parameter they update. Same id and severity, text that says which state is damaged.
  if (bad.length > 0 && bad.every((t) => t.group === "optimizer")) {
    return [detectorFinding({
      id: "checkpoint.nonfinite_weights",
      title: "Optimizer state holds non-finite values",
      description: `The checkpoint's optimizer state (e.g. Adam moments) has ${what}${note}. The weights may still be finite, but resuming from this checkpoint applies that state at the first step and turns the updated weights into NaN/Inf.`,
      evidence,
      severity: "critical",
      confidence: 0.95,
      recommendation: { action: "Do not resume from this checkpoint's optimizer state: resume from an earlier checkpoint, or load its weights and re-create the optimizer; then fix the instability (lower LR, gradient clipping, a larger Adam eps under fp16).", rationale: "Non-finite moments make the next update non-finite for every parameter they cover.", category: "training", effort: "low" },
    })];
  }
  return [detectorFinding({
    id: "checkpoint.nonfinite_weights",
    title: "Checkpoint holds non-finite weights",
    description: `The checkpoint has ${what}${note}: every output computed through them is invalid.`,
    evidence,
    severity: "critical",
    confidence: 0.95,
    recommendation: { action: "Do not use this checkpoint: restore the last one with finite weights and fix the instability that produced it (lower LR, gradient clipping, bf16 instead of fp16).", rationale: "NaN/Inf weights propagate to every prediction and to further training.", category: "model", effort: "low" },
  })];
}

const allZero = (t: TensorRecord) =>
  t.values !== null && !hasNonfiniteValues(t) && (t.values.zeroFraction === 1 || (t.values.min === 0 && t.values.max === 0));

/** CK-03: a weight matrix that is entirely zero (never initialized, pruned away or not loaded). */
export function detectAllZeroTensors(info: CheckpointInfo): Finding[] {
  const zero = info.tensors.filter((t) => isWeight(t) && (t.numel ?? 2) > 1 && allZero(t));
  if (zero.length === 0) return [];
  return [detectorFinding({
    id: "checkpoint.all_zero_tensor",
    title: "Weight tensors are entirely zero",
    description: `${zero.length} weight tensor${zero.length > 1 ? "s are" : " is"} 100 % zeros (${listNames(zero)}): those layers pass nothing forward and get identical gradients, so they cannot learn.`,
    evidence: zero.slice(0, 8).map((t) => ({ rule_id: "CK-03", artifact: tensorArtifact(info, t.name), text: `${t.name} ${JSON.stringify(t.shape)}: all elements are 0.`, observed: 1, threshold: 1, values: { zero_fraction: 1 } })),
    severity: "high",
    confidence: 0.9,
    recommendation: { action: "Check weight initialization, pruning masks and state-dict loading (missing keys loaded as zeros); re-initialize with He/Glorot init.", rationale: "A zero weight matrix never breaks symmetry: every unit stays identical.", category: "model", effort: "low" },
  })];
}

/** Expected std of a trained weight: He/Glorot scale √(1/fan-in); embeddings are initialized around N(0, 1). */
function initScale(t: TensorRecord): number | null {
  if (isEmbedding(t)) return 1;
  const f = fanIn(t);
  return f ? Math.sqrt(1 / f) : null;
}

/** CK-04: a weight whose elements are all equal (std 0), or whose spread is far below any initialization. */
export function detectConstantTensors(info: CheckpointInfo): Finding[] {
  const candidates = info.tensors.filter((t) => isWeight(t) && (t.numel ?? 2) > 1 && t.values && !hasNonfiniteValues(t) && !allZero(t));
  const constant = candidates.filter((t) => (t.values!.min !== null && t.values!.min === t.values!.max) || t.values!.std === 0);
  const flat = candidates.filter((t) => {
    const scale = initScale(t);
    return !constant.includes(t) && scale !== null && t.values!.std !== null && t.values!.std < 1e-3 * scale;
  });
  const out: Finding[] = [];
  if (constant.length > 0) {
    out.push(detectorFinding({
      id: "checkpoint.constant_tensor",
      title: "Weight tensors hold one constant value",
      description: `${constant.length} weight tensor${constant.length > 1 ? "s hold" : " holds"} a single repeated value (${listNames(constant)}): symmetry was never broken, so all units in the layer compute the same thing.`,
      evidence: constant.slice(0, 8).map((t) => ({ rule_id: "CK-04", artifact: tensorArtifact(info, t.name), text: `${t.name}: every element equals ${fmt(t.values!.min ?? t.values!.mean)} (std 0).`, observed: 0, threshold: 0, values: { value: t.values!.min ?? t.values!.mean } })),
      severity: "high",
      confidence: 0.9,
      recommendation: { action: "Initialize weights randomly (He/Glorot) and verify the layer is actually trained (not frozen, receives gradients).", rationale: "Identical units receive identical gradients and stay identical.", category: "model", effort: "low" },
    }));
  }
  if (flat.length > 0) {
    out.push(detectorFinding({
      id: "checkpoint.constant_tensor",
      title: "Weight tensors are nearly constant",
      description: `${flat.length} weight tensor${flat.length > 1 ? "s have" : " has"} a spread below 0.1 % of the initialization scale (${listNames(flat)}): the layer is close to constant.`,
      evidence: flat.slice(0, 8).map((t) => ({ rule_id: "CK-04", artifact: tensorArtifact(info, t.name), text: `${t.name}: std ${fmt(t.values!.std)} vs init scale ${fmt(initScale(t))}.`, observed: t.values!.std, threshold: 1e-3 * initScale(t)! })),
      severity: "medium",
      confidence: 0.6,
      recommendation: { action: "Check the layer's initialization and whether weight decay or a frozen parameter collapsed it.", rationale: "A near-constant layer carries almost no information.", category: "model", effort: "low" },
    }));
  }
  return out;
}

/**
 * CK-05: weights whose RMS is more than 10× the He scale √(2/fan-in) (or variance > 10 without a shape). A tensor
 * holding NaN/Inf is CK-02's: statistics of its finite remainder say nothing (a diverged run read 8e17× here).
 */
export function detectExplodingWeights(info: CheckpointInfo): Finding[] {
  const hot = info.tensors.flatMap((t) => {
    if (!isWeight(t) || !t.values || t.values.std === null || hasNonfiniteValues(t)) return [];
    const rms = Math.sqrt(t.values.std ** 2 + (t.values.mean ?? 0) ** 2);
    const f = fanIn(t);
    const limit = isEmbedding(t) ? 10 : f ? 10 * Math.sqrt(2 / f) : Math.sqrt(10);
    return rms > limit ? [{ t, rms, limit }] : [];
  });
  if (hot.length === 0) return [];
  const worst = Math.max(...hot.map((h) => h.rms / h.limit));
  return [detectorFinding({
    id: "checkpoint.exploding_weights",
    title: "Weights far larger than their initialization scale",
    description: `${hot.length} weight tensor${hot.length > 1 ? "s have" : " has"} an RMS more than 10× the He initialization scale (${listNames(hot.map((h) => h.t))}), up to ${fmt(worst * 10)}×: a sign of divergence or missing weight decay.`,
    evidence: hot.slice(0, 8).map(({ t, rms, limit }) => ({ rule_id: "CK-05", artifact: tensorArtifact(info, t.name), text: `${t.name}: RMS ${fmt(rms)} vs limit ${fmt(limit)} (max |w| ${fmt(t.values!.maxAbs)}).`, observed: rms, threshold: limit })),
    severity: "medium",
    confidence: scoreConfidence({ strength: worst, threshold: 1 }),
    recommendation: { action: "Use weight decay (AdamW), a lower learning rate and gradient clipping; check the loss curve for divergence.", rationale: "Weights that grow unchecked saturate activations and destabilize training.", category: "training", effort: "low" },
  })];
}

/**
 * CK-06 (proxy): more than half of a layer's output units have ~zero weights. Not on a tensor holding NaN/Inf: next
 * to a diverged unit's huge weights every other unit looks ~zero, a symptom of CK-02 and not dead units.
 */
export function detectDeadUnits(info: CheckpointInfo): Finding[] {
  const dead = info.tensors.filter((t) => {
    const v = t.values;
    return isWeight(t) && !isEmbedding(t) && v?.units && v.deadUnits !== null && !allZero(t) && !hasNonfiniteValues(t) && v.deadUnits / v.units > 0.5;
  });
  if (dead.length === 0) return [];
  return [detectorFinding({
    id: "checkpoint.dead_units",
    title: "Most output units of a layer have zero weights",
    description: `In ${listNames(dead)}, more than half of the output units have weights of ~zero: those units are dead (a proxy; confirm with activation statistics).`,
    evidence: dead.slice(0, 8).map((t) => ({ rule_id: "CK-06", artifact: tensorArtifact(info, t.name), text: `${t.name}: ${t.values!.deadUnits} of ${t.values!.units} output units have max |w| below 1e-6 of the layer's largest.`, observed: t.values!.deadUnits! / t.values!.units!, threshold: 0.5 })),
    severity: "medium",
    confidence: 0.45,
    recommendation: { action: "Try Leaky ReLU/GELU, a lower learning rate and He initialization; check for over-aggressive pruning or L1.", rationale: "Units with zero incoming weights produce constant outputs and receive no useful gradient.", category: "model", effort: "medium" },
  })];
}
