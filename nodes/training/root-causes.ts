import type { RootCause } from "../root-causes.js";

/**
 * Causes several training findings share; grouped by nodes/root-causes.ts. One run is one occurrence of each, so
 * no `sameCause` test is needed. On the real-output run corpus a run that never learned raised three or four
 * findings for one fault. Overfitting with its generalization gap, and a divergence with its spikes, stay apart
 * for now: the cross-artifact rules quote the gap's own numbers and each keeps a recommendation of its own
 * (restore the best checkpoint; resume from before the spikes) that a merged finding would drop.
 */
export const TRAINING_ROOT_CAUSES: readonly RootCause[] = [
  {
    // A run that never learned is flat, stuck at chance and under-fitted at once: one fault, not three.
    ids: ["training.chance_level", "training.no_learning", "training.underfitting", "training.metric_frozen"],
    title: "The model never learned: its metrics stay near their starting level",
    explanation: "These detectors read the same run that never left its starting level:",
  },
];
