import type { ChecksFacts } from "../nodes/checks/facts.js";
import type { CheckpointFacts } from "../nodes/checkpoint/facts.js";
import type { DatasetFacts } from "../nodes/dataset/facts.js";
import type { TrainingFacts } from "../nodes/training/facts.js";

/** Facts per artifact kind, as the analyzers that ran reported them. */
export interface FactsByKind {
  dataset?: DatasetFacts;
  checks?: ChecksFacts;
  training?: TrainingFacts;
  checkpoint?: CheckpointFacts;
}
