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
 * A trainable weight matrix or kernel of the model: float, at least 2-D (or named `.weight` when the client sent
 * no shape), not a normalization layer.
 */
export function isWeight(t: TensorRecord): boolean {
  if (t.group !== "model" || !isFloat(t) || isNorm(t) || isBias(t)) return false;
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
