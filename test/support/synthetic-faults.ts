import type { Severity } from "../../domain/result.js";
import { type Draft, type HealthyKind, healthyDraft, toArtifact } from "./synthetic-history.js";

/**
 * Faults injected into healthy synthetic drafts, each with a severity knob s ∈ [0, 1] (≥ 0.7 is a strong fault)
 * and the finding that should report it. Injections change the clean signals (before noise) or, for NaN and
 * exact constants, the logged values (after noise).
 */
export interface FaultSpec {
  /** Finding id the fault must produce. */
  finding: string;
  /** Severity at or above which a strong case counts as found. */
  minSeverity: Severity;
  /** Healthy shape the fault is injected into. */
  base: HealthyKind;
  inject(d: Draft, s: number): void;
}

const lerp = (a: number, b: number, s: number) => a + (b - a) * s;
const indexAt = (us: number[], u: number) => Math.max(0, us.findIndex((x) => x >= u));

/** Scales the clean losses from normalized time u0 on by f(u). */
function scaleLosses(d: Draft, u0: number, f: (u: number) => number): void {
  d.trainLoss = d.trainLoss.map((v, i) => (d.trainU[i]! >= u0 ? v * f(d.trainU[i]!) : v));
  d.valLoss = d.valLoss.map((v, i) => (d.valU[i]! >= u0 ? v * f(d.valU[i]!) : v));
}

/** Holds every curve at its value at u0 from then on (nothing improves). */
function freezeFrom(d: Draft, u0: number): void {
  const hold = (values: number[], us: number[]) => {
    const i = indexAt(us, u0);
    return values.map((v, j) => (j > i ? values[i]! : v));
  };
  d.trainLoss = hold(d.trainLoss, d.trainU);
  d.valLoss = hold(d.valLoss, d.valU);
  if (d.trainAcc) d.trainAcc = hold(d.trainAcc, d.trainU);
  if (d.valAcc) d.valAcc = hold(d.valAcc, d.valU);
}

function ensureGrad(d: Draft): number[] {
  d.grad ??= d.trainU.map((u) => 0.3 + 3 * Math.exp(-u / 0.05));
  d.params.max_grad_norm ??= 1.0;
  return d.grad;
}

export const FAULTS = {
  nonfinite_loss: {
    finding: "training.nonfinite_loss",
    minSeverity: "critical",
    base: "standard",
    inject(d, s) {
      const from = indexAt(d.trainU, d.rng.uniform(0.3, 0.9));
      const count = Math.max(1, Math.round(s * (d.trainU.length - from)));
      d.after.push((h) => {
        for (let i = from; i < Math.min(h.trainLoss.length, from + count); i++) h.trainLoss[i] = Number.NaN;
      });
    },
  },
  divergence: {
    finding: "training.divergence",
    minSeverity: "high",
    base: "standard",
    inject(d, s) {
      const u0 = d.rng.uniform(0.35, 0.6);
      const i0 = indexAt(d.trainU, u0);
      const drop = d.trainLoss[0]! - d.trainLoss[i0]!;
      const rise = lerp(0.2, 1.5, s) * drop;
      const add = (v: number, u: number) => v + (u > u0 ? (rise * (u - u0)) / (1 - u0) : 0);
      d.trainLoss = d.trainLoss.map((v, i) => add(v, d.trainU[i]!));
      d.valLoss = d.valLoss.map((v, i) => add(v, d.valU[i]!));
    },
  },
  loss_spikes: {
    finding: "training.loss_spikes",
    minSeverity: "medium",
    base: "llm_steps",
    inject(d, s) {
      const count = 1 + Math.round(4 * s);
      const factor = lerp(1.5, 4, s);
      const shift = s >= 0.5 ? lerp(1.15, 1.5, s) : 1;
      const at = Array.from({ length: count }, () => indexAt(d.trainU, d.rng.uniform(0.15, 0.95))).sort((a, b) => a - b);
      if (shift > 1) scaleLosses(d, d.trainU[at[0]!]!, () => shift);
      d.after.push((h) => {
        for (const i of at) {
          h.trainLoss[i] = h.trainLoss[i]! * factor;
          if (i + 1 < h.trainLoss.length) h.trainLoss[i + 1] = h.trainLoss[i + 1]! * Math.sqrt(factor);
        }
      });
    },
  },
  no_learning: {
    finding: "training.no_learning",
    minSeverity: "high",
    base: "standard",
    inject(d, s) {
      const slope = 0.008 * (1 - s);
      d.trainLoss = d.trainU.map((u) => d.initLoss * (1 - slope * u));
      d.valLoss = d.valU.map((u) => d.initLoss * 1.01 * (1 - slope * u));
      const chance = d.k ? 1 / d.k : 0.5;
      if (d.trainAcc) d.trainAcc = d.trainAcc.map(() => chance);
      if (d.valAcc) d.valAcc = d.valAcc.map(() => chance);
    },
  },
  init_loss: {
    finding: "training.init_loss_sanity",
    minSeverity: "medium",
    base: "standard",
    inject(d, s) {
      const start = d.initLoss * lerp(3.5, 8, s);
      d.trainU[0] = 0;
      d.trainSteps[0] = 0;
      d.trainLoss[0] = start;
    },
  },
  plateau: {
    finding: "training.plateau",
    minSeverity: "medium",
    base: "standard",
    inject(d, s) {
      freezeFrom(d, lerp(0.6, 0.15, s));
      d.trainLoss = d.trainLoss.map((v) => Math.max(v, 0.4 * d.initLoss));
      d.valLoss = d.valLoss.map((v) => Math.max(v, 0.42 * d.initLoss));
    },
  },
  oscillation: {
    finding: "training.oscillation",
    minSeverity: "medium",
    base: "standard",
    inject(d, s) {
      const amplitude = lerp(0.1, 0.6, s);
      const period = d.rng.int(4, 6);
      const wave = (i: number) => (Math.floor(i / (period / 2)) % 2 === 0 ? 1 + amplitude : 1 / (1 + amplitude));
      d.trainLoss = d.trainLoss.map((v, i) => (d.trainU[i]! > 0.55 ? v * wave(i) : v));
      d.valLoss = d.valLoss.map((v, i) => (d.valU[i]! > 0.55 ? v * wave(i) : v));
    },
  },
  lr_too_high: {
    finding: "training.lr_too_high",
    minSeverity: "medium",
    base: "llm_steps",
    inject(d, s) {
      const lr = lerp(0.012, 0.1, s);
      d.params.optimizer = "adamw";
      d.params.lr = lr;
      d.lr = d.lr.map((v) => (v / Math.max(...d.lr)) * lr);
      if (s < 0.5) return;
      const at = [indexAt(d.trainU, 0.06), indexAt(d.trainU, 0.085)];
      d.after.push((h) => {
        for (const i of at) h.trainLoss[i] = h.trainLoss[i]! * 3;
      });
    },
  },
  lr_too_low: {
    finding: "training.lr_too_low",
    minSeverity: "medium",
    base: "standard",
    inject(d, s) {
      const total = lerp(0.04, 0.09, s);
      const lr = lerp(8e-6, 5e-7, s);
      d.params.optimizer = "adam";
      d.params.lr = lr;
      d.lr = d.lr.map(() => lr);
      d.trainLoss = d.trainU.map((u) => d.initLoss * (1 - total * u));
      d.valLoss = d.valU.map((u) => d.initLoss * 1.02 * (1 - total * u));
    },
  },
  vanishing_gradients: {
    finding: "training.vanishing_gradients",
    minSeverity: "medium",
    base: "standard",
    inject(d, s) {
      const grad = ensureGrad(d);
      const decades = lerp(2.5, 6, s);
      d.grad = grad.map((g, i) => g * 10 ** (-decades * Math.min(1, d.trainU[i]! / 0.5)));
      freezeFrom(d, 0.4);
    },
  },
  exploding_gradients: {
    finding: "training.exploding_gradients",
    minSeverity: "high",
    base: "standard",
    inject(d, s) {
      ensureGrad(d);
      const count = 2 + Math.round(3 * s);
      const factor = lerp(8, 300, s);
      const at = Array.from({ length: count }, () => indexAt(d.trainU, d.rng.uniform(0.3, 0.95)));
      d.after.push((h) => {
        for (const i of at) h.grad![i] = h.grad![i]! * factor;
        if (s > 0.85) h.grad![at[0]!] = Number.NaN;
      });
    },
  },
  over_clipping: {
    finding: "training.over_clipping",
    minSeverity: "medium",
    base: "llm_steps",
    inject(d, s) {
      const grad = ensureGrad(d);
      const share = lerp(0.4, 0.99, s);
      const level = lerp(1.5, 4, s);
      d.grad = grad.map((g, i) => (d.trainU[i]! > 1 - share ? level * (1 + g) : g));
      d.params.max_grad_norm = 1.0;
    },
  },
  overfitting: {
    finding: "training.overfitting",
    minSeverity: "medium",
    base: "standard",
    inject(d, s) {
      const u0 = d.rng.uniform(0.25, 0.5);
      const i0 = indexAt(d.valU, u0);
      const best = d.valLoss[i0]!;
      const rise = lerp(0.02, 0.7, s) * best;
      d.valLoss = d.valLoss.map((v, i) => (i > i0 ? best + rise * ((d.valU[i]! - u0) / (1 - u0)) ** 1.2 : v));
      if (d.valAcc) d.valAcc = d.valAcc.map((a, i) => (i > i0 ? a - 0.05 * s * ((d.valU[i]! - u0) / (1 - u0)) : a));
      d.params.restore_best_weights = false;
    },
  },
  generalization_gap: {
    finding: "training.generalization_gap",
    minSeverity: "medium",
    base: "standard",
    inject(d, s) {
      const gap = lerp(0.05, 0.3, s);
      d.trainAcc ??= d.trainU.map((u) => 0.5 + 0.48 * u);
      d.valAcc ??= d.valU.map((u) => 0.5 + 0.48 * u);
      const top = Math.max(...d.trainAcc);
      d.trainAcc = d.trainAcc.map((a) => Math.min(0.995, a + (0.99 - top) * 0.9));
      d.valAcc = d.valAcc.map((a, i) => a - gap * d.valU[i]!);
      d.valLoss = d.valLoss.map((v, i) => v * (1 + 2 * gap * d.valU[i]!));
    },
  },
  underfitting: {
    finding: "training.underfitting",
    minSeverity: "high",
    base: "standard",
    inject(d, s) {
      const k = d.k ?? 10;
      d.k = k;
      d.params.num_classes = k;
      const reduction = lerp(0.18, 0.04, s) * Math.log(k);
      d.trainLoss = d.trainU.map((u) => Math.log(k) - reduction * (1 - Math.exp(-u / 0.2)));
      d.valLoss = d.valU.map((u) => Math.log(k) * 1.01 - reduction * (1 - Math.exp(-u / 0.2)));
      d.trainAcc = d.trainU.map((u) => 1 / k + 0.03 * (1 - s) * u);
      d.valAcc = d.valU.map((u) => 1 / k + 0.025 * (1 - s) * u);
    },
  },
  metric_frozen: {
    finding: "training.metric_frozen",
    minSeverity: "high",
    base: "standard",
    inject(d, s) {
      const k = d.k ?? 2;
      d.params.num_classes = k;
      // Strong faults stay frozen for the catalog's 20 evaluations at least.
      const frozen = Math.min(d.valU.length, Math.max(Math.round(lerp(0.3, 1, s) * d.valU.length), s >= 0.7 ? 20 : 0));
      const from = d.valU.length - frozen;
      d.after.push((h) => {
        if (h.valAcc) for (let i = from; i < h.valAcc.length; i++) h.valAcc[i] = 1 / k;
        else h.valAcc = h.valLoss.map(() => 1 / k);
      });
    },
  },
  train_val_inversion: {
    finding: "training.train_val_inversion",
    minSeverity: "medium",
    base: "standard",
    inject(d, s) {
      const ratio = lerp(0.85, 0.3, s);
      d.params.dropout = 0;
      d.valLoss = d.valLoss.map((_, i) => d.trainLoss[Math.min(i, d.trainLoss.length - 1)]! * ratio);
      if (d.trainAcc && d.valAcc) d.valAcc = d.valAcc.map((_, i) => Math.min(0.999, d.trainAcc![Math.min(i, d.trainAcc!.length - 1)]! + lerp(0.01, 0.1, s)));
    },
  },
  suspicious_perfection: {
    finding: "training.suspicious_perfection",
    minSeverity: "medium",
    base: "standard",
    inject(d, s) {
      const level = lerp(0.985, 0.999, s);
      d.valSamples = Math.max(d.valSamples, 5000);
      d.valAcc = d.valU.map((u) => level + (1 - level) * 0.5 * u);
      d.trainAcc ??= d.trainU.map((u) => 0.9 + 0.09 * u);
    },
  },
  amp_overflow: {
    finding: "training.amp_overflow",
    minSeverity: "medium",
    base: "llm_steps",
    inject(d, s) {
      const halvings = Math.round(lerp(10, 20, s));
      d.params.fp16 = true;
      d.lossScale = d.trainU.map((u) => 65536 / 2 ** Math.floor(halvings * u));
    },
  },
  lr_schedule: {
    finding: "training.lr_schedule",
    minSeverity: "medium",
    base: "standard",
    inject(d, s) {
      const cuts = 2 + Math.round(4 * s);
      const peak = Math.max(...d.lr);
      d.params.scheduler = "ReduceLROnPlateau(factor=0.5, patience=3)";
      d.lr = d.trainU.map((u) => peak * 0.5 ** Math.min(cuts, Math.floor(u * (cuts + 1))));
    },
  },
  cuda_oom: {
    finding: "training.cuda_oom",
    minSeverity: "high",
    base: "standard",
    inject(d) {
      d.logs.push("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.64 GiB of which 1.12 GiB is free.");
    },
  },
  dataloader_errors: {
    finding: "training.dataloader_errors",
    minSeverity: "high",
    base: "standard",
    inject(d) {
      d.logs.push("RuntimeError: DataLoader worker (pid 48213) is killed by signal: Killed. ");
    },
  },
  early_stop_opportunity: {
    finding: "training.early_stop_opportunity",
    minSeverity: "low",
    base: "standard",
    inject(d, s) {
      freezeFrom(d, lerp(0.7, 0.2, s));
      d.trainLoss = d.trainU.map((u, i) => d.trainLoss[i]! * (1 - 0.3 * u));
    },
  },
  eval_coverage: {
    finding: "training.eval_coverage",
    minSeverity: "info",
    base: "standard",
    inject(d, s) {
      const keep = s > 0.5 ? 3 : 4;
      const stride = Math.max(1, Math.floor(d.valU.length / keep));
      const idx = Array.from({ length: keep }, (_, i) => Math.min(d.valU.length - 1, (i + 1) * stride - 1));
      d.valU = idx.map((i) => d.valU[i]!);
      d.valSteps = idx.map((i) => d.valSteps[i]!);
      d.valLoss = idx.map((i) => d.valLoss[i]!);
      if (d.valAcc) d.valAcc = idx.map((i) => d.valAcc![i]!);
    },
  },
} satisfies Record<string, FaultSpec>;

export type FaultType = keyof typeof FAULTS;
export const FAULT_TYPES = Object.keys(FAULTS) as FaultType[];

/** A history with one injected fault at severity s (0 = barely there, 1 = blatant), as a `training_artifacts` payload. */
export function faultyHistory(seed: number, fault: FaultType, s: number): Record<string, unknown> {
  const spec: FaultSpec = FAULTS[fault];
  const d = healthyDraft(seed, spec.base, false);
  spec.inject(d, s);
  return toArtifact(d);
}
