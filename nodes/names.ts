import type { ArtifactKind } from "../artifacts/context.js";
import { AGENT_NAMES, type AgentName } from "../domain/result.js";

/** Node names of the graph; each equals its node function's name (STYLE.md rule 3). */
export const NODE = {
  route: "route",
  analyzeDataset: "analyzeDataset",
  analyzeChecks: "analyzeChecks",
  analyzeTraining: "analyzeTraining",
  analyzeCheckpoint: "analyzeCheckpoint",
  integrate: "integrate",
  advise: "advise",
} as const;
export type NodeName = (typeof NODE)[keyof typeof NODE];

/** The analyzer node of each artifact kind. */
export const ANALYZER_BY_KIND = {
  dataset: NODE.analyzeDataset,
  checks: NODE.analyzeChecks,
  training: NODE.analyzeTraining,
  checkpoint: NODE.analyzeCheckpoint,
} as const satisfies Record<ArtifactKind, NodeName>;

export const ANALYZER_NODES = Object.values(ANALYZER_BY_KIND);

/** The agent each node answers as (its key in agent_results); route answers as none. */
export const AGENT_OF_NODE = {
  analyzeDataset: AGENT_NAMES.dataset,
  analyzeChecks: AGENT_NAMES.checks,
  analyzeTraining: AGENT_NAMES.training,
  analyzeCheckpoint: AGENT_NAMES.checkpoint,
  integrate: AGENT_NAMES.integrate,
  advise: AGENT_NAMES.advise,
} as const satisfies Record<Exclude<NodeName, "route">, AgentName>;
