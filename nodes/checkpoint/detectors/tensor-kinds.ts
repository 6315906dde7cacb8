import { isFloatDType } from "../file/dtypes.js";
import type { CheckpointInfo, TensorRecord } from "../table.js";

/** Normalization layers (LayerNorm, BatchNorm, RMSNorm…) and their running buffers. */
const NORM = /(^|[._])(norm|bn\d*|ln(_\w+)?|layernorm|batchnorm|rmsnorm|groupnorm)([._]|$)|running_(mean|var)|num_batches_tracked/i;
const EMBEDDING = /(embed|wte|wpe|tok_embeddings|word_embeddings|position_embeddings|token_type|(^|\.)shared\.|lm_head)/i;
const BUFFER = /(running_mean|running_var|num_batches_tracked|position_ids|masked_bias|inv_freq)$/;

export const isBias = (t: TensorRecord) => /(^|[._])bias$/.test(t.name);
export const isNorm = (t: TensorRecord) => NORM.test(t.name);
export const isEmbedding = (t: TensorRecord) => EMBEDDING.test(t.name);
/** Buffers are saved in a state dict but are not parameters. */
export const isBuffer = (t: TensorRecord) => BUFFER.test(t.name);

/** Float tensor, by dtype, or by the client's dtype name when it is not one we normalize. */
export function isFloat(t: TensorRecord): boolean {
  return t.dtype ? isFloatDType(t.dtype) : /float|half|bf16|fp\d/i.test(t.rawDtype);
}

/**
 * Constants saved beside the weights, by name: detection anchors and strides, position ids, rotary `inv_freq`,
 * attention masks and relative-position indices, and the fixed projection of Ultralytics' DFL head (an arange
 * its code sets and freezes).
 */
const FIXED_NAME = /(^|[._])(anchors|anchor_grid|anchor_points|strides?|position_ids|inv_freq|masked_bias|attn_mask|causal_mask|relative_position_index|dfl\.(_modules\.)?conv\.(_parameters\.)?weight)$/;

/** A whole pickled nn.Module names its tensors by attribute path; trained ones sit in a `_parameters` dict. */
const outsideParameters = (t: TensorRecord) => /(^|\.)_modules\./.test(t.name) && !/\._parameters\.[^.]+$/.test(t.name);

/** 0, 1, …, n−1 in any shape: a fixed index or projection, never a trained weight (by its statistics). */
export function looksLikeArange(t: TensorRecord): boolean {
  const v = t.values;
  const n = t.numel ?? 0;
  if (!v || n < 2 || v.min !== 0 || v.max !== n - 1 || v.mean === null || v.std === null) return false;
  const population = Math.sqrt((n * n - 1) / 12);
  const sample = Math.sqrt((n * (n + 1)) / 12);
  const close = (a: number, b: number) => Math.abs(a - b) <= 0.01 * b;
  return close(v.mean, (n - 1) / 2) && (close(v.std, population) || close(v.std, sample));
}

/**
 * A tensor the trainer does not train: a buffer, a constant by name, a whole model's non-parameter attribute,
 * one the file records with requires_grad = false beside trainable ones, or an arange by its values.
 */
export function isFixed(t: TensorRecord): boolean {
  return isBuffer(t) || FIXED_NAME.test(t.name) || outsideParameters(t) || t.requiresGrad === false || looksLikeArange(t);
}

/**
 * A trainable weight matrix or kernel of the model: float, at least 2-D (or named `.weight` when the client sent
 * no shape), not a normalization layer, not fixed (`isFixed`).
 */
export function isWeight(t: TensorRecord): boolean {
  if (t.group !== "model" || !isFloat(t) || isNorm(t) || isBias(t) || isFixed(t)) return false;
  return t.shape ? t.shape.length >= 2 : /\.weight$/.test(t.name);
}

/** Inputs per output unit (fan-in) of a weight: columns of a matrix, in×kh×kw of a conv kernel. */
export function fanIn(t: TensorRecord): number | null {
  if (!t.shape || t.shape.length < 2 || !t.numel) return null;
  return t.numel / t.shape[0]!;
}

/** Where evidence about a tensor comes from, for the evidence's `artifact` field. */
export function tensorArtifact(info: CheckpointInfo, name?: string): string {
  const base = info.mode === "metadata_only" ? "model_checkpoint_artifacts.metadata.tensor_stats" : "model_checkpoint_artifacts.checkpoint_path";
  return name ? `${base}:${name}` : base;
}

/** Names of at most `n` tensors, then "and N more". */
export function listNames(tensors: readonly TensorRecord[], n = 5): string {
  const head = tensors.slice(0, n).map((t) => t.name).join(", ");
  return tensors.length > n ? `${head} and ${tensors.length - n} more` : head;
}

/** A number for a sentence: 4 significant digits. */
export const fmt = (x: number | null | undefined) => (x === null || x === undefined ? "n/a" : Number(x.toPrecision(4)).toString());
