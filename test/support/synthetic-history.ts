import { Prng } from "./prng.js";

/**
 * Seeded synthetic training histories for measuring the training detectors: healthy runs with realistic noise
 * (test/support/synthetic-faults.ts injects faults into the same drafts). Every value is a function of the seed.
 */

/** Healthy shapes: each one is a known source of false alarms for naive rules. */
export const HEALTHY_KINDS = ["standard", "small_val", "double_descent", "plateau_then_drop", "cyclic_lr", "dropout_inversion", "llm_steps"] as const;
export type HealthyKind = (typeof HEALTHY_KINDS)[number];

/** A history before noise: clean signals at the logged positions, plus params and logs. */
export interface Draft {
  rng: Prng;
  kind: HealthyKind;
  stepLevel: boolean;
  /** Classes of the task (null for language modelling). */
  k: number | null;
  /** Normalized time u ∈ [0, 1] and step of each training point and each evaluation. */
  trainU: number[];
  trainSteps: number[];
  valU: number[];
  valSteps: number[];
  epochOf: (step: number) => number;
  /** Loss at initialization and the curve's shape. */
  initLoss: number;
  trainLoss: number[];
  valLoss: number[];
  trainAcc: number[] | null;
  valAcc: number[] | null;
  lr: number[];
  grad: number[] | null;
  lossScale: number[] | null;
  /** Noise: relative sd of the logged train loss, evaluation-set size, log-sd of the gradient norm. */
  trainNoise: number;
  valSamples: number;
  gradNoise: number;
  params: Record<string, unknown>;
  logs: string[];
  /** Edits applied after noise (NaN, spikes, quantized constants). */
  after: Array<(h: NoisyHistory) => void>;
}

/** The logged values, noise included: the same signals as a draft. */
export type NoisyHistory = Pick<Draft, "trainLoss" | "valLoss" | "trainAcc" | "valAcc" | "lr" | "grad" | "lossScale">;

/** Shape of a decreasing loss: fast exponential part plus a slow power-law tail, 1 at u = 0. */
export function decay(u: number, tauFast: number, tauSlow: number, fastShare: number): number {
  return fastShare * Math.exp(-u / tauFast) + (1 - fastShare) / (1 + u / tauSlow);
}

function lrSchedule(rng: Prng, kind: HealthyKind, peak: number, dropAt: number): { name: string; at: (u: number) => number } {
  if (kind === "cyclic_lr") {
    const period = rng.uniform(0.08, 0.2);
    const base = peak * rng.uniform(0.05, 0.2);
    return { name: "CyclicLR", at: (u) => base + (peak - base) * (1 - Math.abs(((u / period) % 1) * 2 - 1)) };
  }
  if (kind === "plateau_then_drop") return { name: "MultiStepLR", at: (u) => (u < dropAt ? peak : 0.1 * peak) };
  if (kind === "llm_steps") {
    const warm = rng.uniform(0.01, 0.05);
    const floor = rng.uniform(0, 0.1);
    const cosine = rng.chance(0.5);
    return {
      name: cosine ? "cosine" : "linear",
      at: (u) => (u < warm ? peak * (u / warm) : peak * (floor + (1 - floor) * (cosine ? 0.5 * (1 + Math.cos((Math.PI * (u - warm)) / (1 - warm))) : 1 - (u - warm) / (1 - warm)))),
    };
  }
  const choice = rng.pick(["constant", "cosine", "step", "exponential", "warmup_cosine"] as const);
  switch (choice) {
    case "constant":
      return { name: "constant", at: () => peak };
    case "cosine":
      return { name: "CosineAnnealingLR", at: (u) => peak * 0.5 * (1 + Math.cos(Math.PI * u)) };
    case "step":
      return { name: "StepLR", at: (u) => peak * (u < 0.5 ? 1 : u < 0.75 ? 0.1 : 0.01) };
    case "exponential":
      return { name: "ExponentialLR", at: (u) => peak * 0.97 ** (u * 60) };
    case "warmup_cosine": {
      const warm = rng.uniform(0.02, 0.08);
      return { name: "warmup_cosine", at: (u) => (u < warm ? peak * (0.1 + (0.9 * u) / warm) : peak * 0.5 * (1 + Math.cos((Math.PI * (u - warm)) / (1 - warm)))) };
    }
  }
}

/** A healthy draft of the given kind; "standard" runs stop early half of the time unless told not to. */
export function healthyDraft(seed: number, kind: HealthyKind, allowEarlyStopping = true): Draft {
  const rng = new Prng(seed);
  const stepLevel = kind === "llm_steps";
  const k = stepLevel ? null : rng.pick([2, 2, 3, 5, 10, 10, 20, 100]);
  const initLoss = k ? Math.log(k) * rng.uniform(0.95, 1.1) : rng.uniform(2.5, 4.5);
  const floor = k ? Math.log(k) * rng.uniform(0.04, 0.4) : rng.uniform(0.8, 1.8);
  const epochs = stepLevel ? rng.int(1, 3) : rng.int(20, 100);
  const totalSteps = stepLevel ? rng.int(200, 600) * 10 : epochs * rng.int(50, 400);
  const stepsPerEpoch = totalSteps / epochs;
  const trainU: number[] = [];
  const trainSteps: number[] = [];
  const valU: number[] = [];
  const valSteps: number[] = [];
  if (stepLevel) {
    for (let s = 10; s <= totalSteps; s += 10) {
      trainSteps.push(s);
      trainU.push(s / totalSteps);
    }
    const evals = rng.int(10, 20);
    for (let e = 1; e <= evals; e++) {
      valSteps.push(Math.round((e * totalSteps) / evals / 10) * 10);
      valU.push(valSteps[valSteps.length - 1]! / totalSteps);
    }
  } else {
    for (let e = 0; e < epochs; e++) {
      trainSteps.push(Math.round((e + 1) * stepsPerEpoch) - 1);
      trainU.push((e + 0.5) / epochs);
      valSteps.push(Math.round((e + 1) * stepsPerEpoch) - 1);
      valU.push((e + 1) / epochs);
    }
  }
  const tauFast = rng.uniform(0.03, 0.15);
  const tauSlow = rng.uniform(0.05, 0.3);
  const fastShare = rng.uniform(0.4, 0.8);
  const shape = (u: number) => decay(u, tauFast, tauSlow, fastShare);
  const dropAt = rng.uniform(0.4, 0.6);
  const dropSize = rng.uniform(0.1, 0.3) * (initLoss - floor);
  const cyclic = kind === "cyclic_lr" ? rng.uniform(0.02, 0.08) : 0;
  const optimizer = rng.pick(["adam", "adamw", "sgd"] as const);
  const peak = optimizer === "sgd" ? rng.logUniform(0.01, 0.2) : stepLevel ? rng.logUniform(1e-5, 3e-4) : rng.logUniform(1e-4, 3e-3);
  const schedule = lrSchedule(rng, kind, peak, dropAt);
  const bump = kind === "double_descent" ? { at: rng.uniform(0.25, 0.45), width: rng.uniform(0.05, 0.1), height: rng.uniform(0.08, 0.2) } : null;
  const gapShare = rng.uniform(0, 0.1);
  const inversion = kind === "dropout_inversion" ? rng.uniform(1.08, 1.3) : 1;

  const lossAt = (u: number) => {
    let l = floor + (initLoss - floor) * shape(u);
    if (kind === "plateau_then_drop") l += dropSize / (1 + Math.exp((u - dropAt) / 0.01));
    if (cyclic) l *= 1 + cyclic * (schedule.at(u) / peak - 0.5);
    return l;
  };
  const progress = (u: number) => 1 - (lossAt(u) - floor) / (initLoss - floor + (kind === "plateau_then_drop" ? dropSize : 0));
  const trainLoss = trainU.map((u) => lossAt(u) * inversion);
  const valLoss = valU.map((u) => lossAt(u) * (1 + gapShare * progress(u)) * (bump ? 1 + bump.height * Math.exp(-(((u - bump.at) / bump.width) ** 2)) : 1));
  const accMax = rng.uniform(0.7, 0.985);
  const accGap = rng.uniform(0, accMax > 0.9 ? 0.04 : 0.06);
  const chance = k ? 1 / k : 0;
  const accOf = (p: number, top: number) => chance + (top - chance) * Math.max(0, Math.min(1, p)) ** 0.8;
  const invertedAcc = kind === "dropout_inversion" ? rng.uniform(0.01, 0.03) : 0;
  const trainAcc = k ? trainU.map((u) => accOf(progress(u), accMax) - invertedAcc * progress(u)) : null;
  const valAcc = k ? valU.map((u, i) => accOf(progress(u), accMax - accGap) - (bump ? 0.5 * (valLoss[i]! / lossAt(u) - 1 - gapShare * progress(u)) * (accMax - chance) : 0)) : null;
  const hasGrad = stepLevel || rng.chance(0.4);
  const gradStart = rng.uniform(1.5, 5);
  const gradEnd = rng.uniform(0.15, 0.5);
  const grad = hasGrad ? trainU.map((u) => gradEnd + (gradStart - gradEnd) * Math.exp(-u / 0.05)) : null;
  const fp16 = stepLevel && rng.chance(0.4);
  const lossScale = fp16 ? healthyLossScale(rng, trainSteps) : null;
  const valSamples = kind === "small_val" ? rng.int(100, 300) : rng.int(1000, 20000);
  const dropout = kind === "dropout_inversion" ? rng.uniform(0.2, 0.5) : rng.pick([0, 0, 0.1]);
  const draft: Draft = {
    rng,
    kind,
    stepLevel,
    k,
    trainU,
    trainSteps,
    valU,
    valSteps,
    epochOf: (step) => step / stepsPerEpoch,
    initLoss,
    trainLoss,
    valLoss,
    trainAcc,
    valAcc,
    lr: trainU.map((u) => schedule.at(u)),
    grad,
    lossScale,
    trainNoise: stepLevel ? rng.uniform(0.01, 0.05) : rng.uniform(0.002, 0.008),
    valSamples,
    gradNoise: rng.uniform(0.15, 0.35),
    params: {
      ...(k ? { num_classes: k } : {}),
      optimizer,
      lr: peak,
      scheduler: schedule.name,
      dropout,
      batch_size: rng.pick([32, 64, 128, 256]),
      n_val: valSamples,
      ...(hasGrad ? { max_grad_norm: 1.0 } : {}),
      ...(fp16 ? { fp16: true } : {}),
    },
    logs: [],
    after: [],
  };
  if (kind === "standard" && rng.chance(0.5) && allowEarlyStopping) applyEarlyStopping(draft);
  return draft;
}

/**
 * Early stopping as Keras/Lightning run it: a validation curve that turns up by about a standard error at the end
 * (within noise), and the run stops `patience` evaluations after its best, restoring the best weights.
 */
function applyEarlyStopping(d: Draft): void {
  const { rng } = d;
  const patience = rng.int(3, 10);
  const turn = rng.uniform(0.5, 0.8);
  const se = 1 / Math.sqrt(d.valSamples);
  const lift = rng.uniform(0, 2) * se;
  d.valLoss = d.valLoss.map((v, i) => v * (1 + lift * Math.max(0, (d.valU[i]! - turn) / (1 - turn))));
  const best = d.valLoss.indexOf(Math.min(...d.valLoss));
  const stop = Math.min(d.valLoss.length, best + patience + 1);
  if (stop - 1 < 10) return;
  for (const key of ["trainU", "trainSteps", "valU", "valSteps", "trainLoss", "valLoss", "lr"] as const) d[key] = d[key].slice(0, stop);
  if (d.trainAcc) d.trainAcc = d.trainAcc.slice(0, stop);
  if (d.valAcc) d.valAcc = d.valAcc.slice(0, stop);
  if (d.grad) d.grad = d.grad.slice(0, stop);
  d.params = { ...d.params, early_stopping_patience: patience, restore_best_weights: true };
  d.logs.push(`Epoch ${stop}: early stopping`, "Restoring model weights from the end of the best epoch.");
}

/** Dynamic loss scaling as torch.cuda.amp.GradScaler runs it: ×2 every 2000 clean steps, ÷2 on a rare overflow. */
function healthyLossScale(rng: Prng, steps: number[]): number[] {
  let scale = 65536;
  let last = 0;
  return steps.map((s) => {
    if (s - last >= 2000) {
      scale *= 2;
      last = s;
    }
    if (rng.chance(0.003)) {
      scale /= 2;
      last = s;
    }
    return scale;
  });
}

/**
 * Standard normal deviates with lag-1 correlation ρ: a fixed validation set makes consecutive evaluations err
 * alike, which shrinks point-to-point differences and is the hard case for noise estimated from them.
 */
function correlatedNormals(rng: Prng, n: number, rho: number): number[] {
  const out: number[] = [];
  let prev = rng.normal();
  for (let i = 0; i < n; i++) {
    prev = rho * prev + Math.sqrt(1 - rho * rho) * rng.normal();
    out.push(prev);
  }
  return out;
}

/** Heavier-tailed mini-batch noise: one point in fifty draws from a 2.5× wider normal. */
const batchNoise = (rng: Prng) => rng.normal() * (rng.chance(0.02) ? 2.5 : 1);

/** Adds the logging noise: multiplicative on losses, binomial-sized on accuracies, log-normal on grad norms. */
export function addNoise(d: Draft): NoisyHistory {
  const { rng } = d;
  const rho = rng.uniform(0, 0.6);
  const valLossNoise = rng.uniform(0.7, 1.3) / Math.sqrt(d.valSamples);
  const lossShocks = correlatedNormals(rng, d.valLoss.length, rho);
  const accShocks = correlatedNormals(rng, d.valLoss.length, rho);
  const acc = (a: number, n: number, z: number) => Math.min(1, Math.max(0, a + z * Math.sqrt(Math.max(a * (1 - a), 1e-4) / n)));
  const h: NoisyHistory = {
    trainLoss: d.trainLoss.map((v) => v * Math.exp(d.trainNoise * (d.stepLevel ? batchNoise(rng) : rng.normal()))),
    valLoss: d.valLoss.map((v, i) => v * (1 + valLossNoise * lossShocks[i]!)),
    trainAcc: d.trainAcc?.map((a) => acc(a, d.valSamples * 20, rng.normal())) ?? null,
    valAcc: d.valAcc?.map((a, i) => acc(a, d.valSamples, accShocks[i] ?? rng.normal())) ?? null,
    lr: [...d.lr],
    grad: d.grad?.map((g) => g * Math.exp(d.gradNoise * rng.normal())) ?? null,
    lossScale: d.lossScale ? [...d.lossScale] : null,
  };
  for (const edit of d.after) edit(h);
  return h;
}

const NAMES = {
  keras: { trainLoss: "loss", valLoss: "val_loss", trainAcc: "accuracy", valAcc: "val_accuracy", lr: "learning_rate", grad: "grad_norm", lossScale: "loss_scale" },
  lightning: { trainLoss: "train_loss", valLoss: "val_loss", trainAcc: "train_acc", valAcc: "val_acc", lr: "lr-Adam", grad: "grad_2.0_norm_total", lossScale: "loss_scale" },
  hf: { trainLoss: "loss", valLoss: "eval_loss", trainAcc: "train_accuracy", valAcc: "eval_accuracy", lr: "learning_rate", grad: "grad_norm", lossScale: "loss_scale" },
} as const;

/** The draft with noise, written as a `training_artifacts` payload (MLflow-style histories or wide rows). */
export function toArtifact(d: Draft): Record<string, unknown> {
  const h = addNoise(d);
  const names = d.stepLevel ? NAMES.hf : d.rng.pick([NAMES.keras, NAMES.lightning]);
  const columns: Array<[string, number[], number[]]> = [
    [names.trainLoss, d.trainSteps, h.trainLoss],
    [names.valLoss, d.valSteps, h.valLoss],
    [names.lr, d.trainSteps, h.lr],
  ];
  if (h.trainAcc) columns.push([names.trainAcc, d.trainSteps, h.trainAcc]);
  if (h.valAcc) columns.push([names.valAcc, d.valSteps, h.valAcc]);
  if (h.grad) columns.push([names.grad, d.trainSteps, h.grad]);
  if (h.lossScale) columns.push([names.lossScale, d.trainSteps, h.lossScale]);
  const metrics = Object.fromEntries(
    columns.map(([name, steps, values]) => [name, values.map((value, i) => ({ step: steps[i]!, value, epoch: Number(d.epochOf(steps[i]!).toFixed(4)) }))]),
  );
  return { metrics, params: d.params, logs: d.logs };
}

/** A healthy history as a `training_artifacts` payload. */
export function healthyHistory(seed: number, kind: HealthyKind = HEALTHY_KINDS[seed % HEALTHY_KINDS.length]!): Record<string, unknown> {
  return toArtifact(healthyDraft(seed, kind));
}
