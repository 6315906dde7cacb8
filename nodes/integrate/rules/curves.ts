import type { CrossRule } from "../evidence.js";
import { crossFinding } from "./common.js";

/** XA-14: loss spikes that start where the learning rate peaks (end of warm-up): the peak LR is too high. */
export const detectLrSpikeAlignment: CrossRule = (ev) => {
  const spikes = ev.get("training.loss_spikes");
  const t = ev.facts.training;
  if (!spikes || !t || t.lr_peak_step === null || t.spike_steps.length === 0 || t.last_step === null) return [];
  const window = Math.max(1, 0.1 * t.last_step);
  const aligned = t.spike_steps.filter((s) => s >= t.lr_peak_step! && s - t.lr_peak_step! <= window);
  if (aligned.length === 0) return [];
  return [
    crossFinding({
      name: "lr_spike_alignment",
      rule: "XA-14",
      title: "Loss spikes start at the learning-rate peak",
      description: `${aligned.length} loss spike(s) (steps ${aligned.slice(0, 5).join(", ")}) fall within ${Math.round(window)} steps after the learning rate peaks at step ${t.lr_peak_step}: the peak rate is too high for this model, or warm-up ends too soon.`,
      severity: "medium",
      basedOn: [spikes],
      evidence: [{ artifact: "training_artifacts.metrics:lr", text: `LR peak at step ${t.lr_peak_step}; spikes at ${aligned.join(", ")}.`, observed: aligned.length, values: { lr_peak_step: t.lr_peak_step } }],
      recommendation: {
        action: "Lengthen warm-up (to 5–10 % of steps) or lower the peak learning rate, and clip gradients.",
        rationale: "Instability that begins when the learning rate reaches its maximum points at the step size, not the data.",
        category: "training",
        effort: "low",
      },
    }),
  ];
};

export const CURVE_RULES: readonly CrossRule[] = [detectLrSpikeAlignment];
