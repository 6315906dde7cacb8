import type { Evidence, Finding } from "../../../domain/result.js";
import { detectorFinding } from "../../findings.js";
import type { CheckpointInfo, TensorRecord } from "../table.js";
import { isEmbedding, isWeight, tensorArtifact } from "./tensor-kinds.js";

const HEAD = /(^|\.)(classifier|head|heads?\.head|fc|logits|score|cls|output_layer|out_proj|final_layer|linear_out)(\.\d+)?\.weight$/;
const TOKEN_EMBEDDING = /(embed_tokens|word_embeddings|wte|tok_embeddings|embed_in|(^|\.)shared)\.weight$/;
const LAYER_INDEX = /(?:^|\.)(?:layers|layer|h|blocks|block)\.(\d+)\./;

const configNumber = (config: Record<string, unknown>, keys: readonly string[]): [string, number] | null => {
  for (const k of keys) if (typeof config[k] === "number") return [k, config[k] as number];
  return null;
};

/** Classes the configuration names: num_classes/num_labels, or the length of class_names / id2label. */
export function configuredClasses(config: Record<string, unknown> | null): [string, number] | null {
  if (!config) return null;
  const n = configNumber(config, ["num_classes", "num_labels", "n_classes", "nb_classes"]);
  if (n) return n;
  if (Array.isArray(config.class_names)) return ["class_names", config.class_names.length];
  if (config.id2label && typeof config.id2label === "object") return ["id2label", Object.keys(config.id2label).length];
  return null;
}

/** The classification head: the last weight named like one (never an LM head or embedding); else, in a model
 * without embeddings and with every tensor present, the last weight matrix. Its first dimension is the number of
 * classes. */
export function classifierHead(info: CheckpointInfo): TensorRecord | null {
  const weights = info.tensors.filter((t) => isWeight(t) && t.shape && t.shape.length >= 2);
  const named = weights.filter((t) => HEAD.test(t.name) && !isEmbedding(t));
  if (named.length > 0) return named.at(-1)!;
  // The last matrix stands for the head only when every tensor is there (a missing shard may hold the real head).
  return weights.some(isEmbedding) || !info.tensorsComplete ? null : (weights.at(-1) ?? null);
}

/** CK-11: tensor shapes vs the configuration: head size vs classes, embedding vs vocab and hidden size, layer count. */
export function detectShapeMismatch(info: CheckpointInfo): Finding[] {
  const config = info.config;
  if (!config || info.tensors.length === 0) return [];
  const evidence: Evidence[] = [];
  const classes = configuredClasses(config);
  const head = classifierHead(info);
  if (classes && head && head.shape![0] !== classes[1]) {
    evidence.push({ rule_id: "CK-11", artifact: tensorArtifact(info, head.name), text: `Head ${head.name} has ${head.shape![0]} outputs but config.${classes[0]} says ${classes[1]} classes.`, observed: head.shape![0]!, threshold: classes[1] });
  }
  const embedding = info.tensors.find((t) => TOKEN_EMBEDDING.test(t.name) && t.shape?.length === 2);
  const vocab = configNumber(config, ["vocab_size", "n_vocab"]);
  if (embedding && vocab && embedding.shape![0] !== vocab[1]) {
    evidence.push({ rule_id: "CK-11", artifact: tensorArtifact(info, embedding.name), text: `Embedding ${embedding.name} has ${embedding.shape![0]} rows but config.${vocab[0]} is ${vocab[1]}.`, observed: embedding.shape![0]!, threshold: vocab[1] });
  }
  const hidden = configNumber(config, ["hidden_size", "d_model", "n_embd", "dim"]);
  if (embedding && hidden && embedding.shape![1] !== hidden[1]) {
    evidence.push({ rule_id: "CK-11", artifact: tensorArtifact(info, embedding.name), text: `Embedding ${embedding.name} has width ${embedding.shape![1]} but config.${hidden[0]} is ${hidden[1]}.`, observed: embedding.shape![1]!, threshold: hidden[1] });
  }
  const layers = configNumber(config, ["num_hidden_layers", "n_layer", "num_layers"]);
  const indices = new Set(info.tensors.flatMap((t) => (t.group === "model" ? [LAYER_INDEX.exec(t.name)?.[1]] : [])).filter((x) => x !== undefined));
  if (layers && indices.size > 0 && indices.size !== layers[1] && info.tensorsComplete) {
    evidence.push({ rule_id: "CK-11", artifact: tensorArtifact(info), text: `The weights hold ${indices.size} numbered layers but config.${layers[0]} is ${layers[1]}.`, observed: indices.size, threshold: layers[1] });
  }
  if (evidence.length === 0) return [];
  return [detectorFinding({
    id: "checkpoint.shape_mismatch",
    title: "Tensor shapes disagree with the model configuration",
    description: `${evidence.map((e) => e.text).join(" ")} Loading this checkpoint into the configured model fails or silently drops weights.`,
    evidence,
    severity: "high",
    confidence: 0.85,
    recommendation: { action: "Make the configuration match the trained weights (or retrain the head for the new label set) and load with strict=True.", rationale: "A head or embedding of the wrong size means the weights were trained for a different task or tokenizer.", category: "model", effort: "medium" },
  })];
}
