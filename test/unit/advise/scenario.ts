import { AGENT_NAMES, type AgentResult, type FindingRecommendation, type Recommendation, type Severity } from "../../../domain/result.js";
import type { KnowledgePort } from "../../../knowledge/port.js";
import { buildAgentResult } from "../../../nodes/agent-result.js";
import { detectorFinding } from "../../../nodes/findings.js";

interface Spec {
  id: string;
  title: string;
  description: string;
  severity: Severity;
  confidence: number;
  recommendation: FindingRecommendation;
}

const rec = (action: string, category: Recommendation["category"], effort: Recommendation["effort"]): FindingRecommendation => ({
  action,
  rationale: `Because: ${action.toLowerCase()}`,
  category,
  effort,
});

/** The full-image-classification sample as the analyzers report it (fixtures/README.md): what the advisor receives. */
const SCENARIO: Record<string, Spec[]> = {
  [AGENT_NAMES.training]: [
    {
      id: "training.overfitting",
      title: "Overfitting",
      description: "Validation loss bottoms at 0.55 (epoch 23) and rises to 1.18 by epoch 59 while train loss falls to 0.009.",
      severity: "high",
      confidence: 0.85,
      recommendation: rec("Enable early stopping and keep the best checkpoint; add weight decay and augmentation.", "training", "low"),
    },
    {
      id: "training.early_stop_opportunity",
      title: "Training ran long after the best epoch",
      description: "61% of the epochs came after the best validation epoch 23.",
      severity: "low",
      confidence: 0.8,
      recommendation: rec("Use EarlyStopping with patience 5 to save the wasted epochs.", "training", "low"),
    },
    {
      id: "training.dataloader_errors",
      title: "Data loader warnings",
      description: "Two DataLoader worker warnings in the logs.",
      severity: "low",
      confidence: 0.6,
      recommendation: rec("Find the image files that fail to decode in the data pipeline.", "infrastructure", "medium"),
    },
  ],
  [AGENT_NAMES.dataset]: [
    {
      id: "dataset.class_imbalance",
      title: "Class imbalance",
      description: "25:1 between beverages (2,500) and baby_care (100) in train.",
      severity: "medium",
      confidence: 0.8,
      recommendation: rec("Use class weights or resampling during training.", "data", "low"),
    },
  ],
  [AGENT_NAMES.checks]: [
    {
      id: "checks.label_drift",
      title: "Label drift",
      description: "Deepchecks Label Drift FAIL, Cramér's V 0.28 between train and test.",
      severity: "high",
      confidence: 0.75,
      recommendation: rec("Build validation from the test distribution, or re-weight the class priors.", "data", "medium"),
    },
  ],
  [AGENT_NAMES.checkpoint]: [
    {
      id: "checkpoint.size_vs_params",
      title: "Checkpoint includes optimizer state",
      description: "The file is about 3 times the size of the weights.",
      severity: "info",
      confidence: 0.7,
      recommendation: rec("Strip the optimizer state from the artifact you ship for inference.", "infrastructure", "low"),
    },
  ],
  [AGENT_NAMES.integrate]: [
    {
      id: "cross.saved_wrong_checkpoint",
      title: "Saved checkpoint is not the best one",
      description: "last.ckpt is epoch 59; the best validation epoch was 23 and is 5 points better.",
      severity: "medium",
      confidence: 0.8,
      recommendation: rec("Keep the best checkpoint by validation loss (save_top_k=1) and ship it.", "model", "low"),
    },
    {
      id: "cross.imbalance_accuracy_only",
      title: "Accuracy is the only metric on imbalanced data",
      description: "Macro F1 sits about 0.09 below accuracy.",
      severity: "high",
      confidence: 0.7,
      recommendation: rec("Log macro F1, balanced accuracy and per-class recall, and select on them.", "training", "low"),
    },
  ],
};

/** Agent results of the scenario, with citations from the given knowledge base, as the analyzers build them. */
export async function scenarioResults(knowledge: KnowledgePort): Promise<Record<string, AgentResult>> {
  const entries = await Promise.all(
    Object.entries(SCENARIO).map(async ([agent, specs]) => {
      const cited = await knowledge.citeFindings(specs.map((s) => detectorFinding({ ...s, evidence: [] })));
      return [agent, buildAgentResult(agent, cited, [agent], null, null)] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** A recommendation the language model added to the training agent, with no finding and no citation. */
export const LLM_EXTRA: Recommendation = {
  action: "Switch from fp16 to bf16 mixed precision for the next run.",
  rationale: "The GPU supports bf16 and it avoids loss-scale underflow.",
  confidence: 0.5,
  category: "infrastructure",
  effort: "low",
  finding_ids: [],
  citations: [],
  source: "llm",
};
