import { Prng } from "./prng.js";

/**
 * Seeded synthetic sweeps whose truth is known: each configuration has a true final validation loss, each seed
 * shifts a run's level by a relative N(0, seedSd), and each evaluation adds a relative N(0, evalSd). Every value
 * is a function of the seeds given.
 */

export interface SweepNoise {
  /** Relative sd of a run's level from its seed (initialization, data order). */
  seedSd: number;
  /** Relative sd of one evaluation around the run's curve. */
  evalSd: number;
}

/** The generator's noise level: seed-to-seed spread equal to the evaluation-to-evaluation spread, 1 % each. */
export const DEFAULT_NOISE: SweepNoise = { seedSd: 0.01, evalSd: 0.01 };

export interface RunSpec {
  name: string;
  params: Record<string, number | string>;
  /** True final validation loss of the configuration (before seed and evaluation noise). */
  level: number;
  seed: number;
  /** Epoch from which the loss is NaN (diverged), if any. */
  divergeAt?: number;
  epochs?: number;
}

/** One inline run of a POST /v1/compare body: val_loss and train_loss per epoch, params with the seed. */
export function syntheticRun(spec: RunSpec, noise: SweepNoise = DEFAULT_NOISE) {
  const rng = new Prng(spec.seed * 7919 + 17);
  const epochs = spec.epochs ?? 40;
  const level = spec.level * (1 + noise.seedSd * rng.normal());
  const start = 2.3;
  const tau = epochs / 6;
  const val: Array<number | string> = [];
  const train: Array<number | string> = [];
  for (let t = 0; t < epochs; t++) {
    const clean = level + (start - level) * Math.exp(-t / tau);
    const diverged = spec.divergeAt !== undefined && t >= spec.divergeAt;
    val.push(diverged ? "NaN" : clean * (1 + noise.evalSd * rng.normal()));
    train.push(diverged ? "NaN" : clean * 0.9 * (1 + noise.evalSd * rng.normal()));
  }
  return { name: spec.name, params: { ...spec.params, seed: spec.seed }, training_artifacts: { metrics: { val_loss: val, train_loss: train } } };
}

/** True loss of a learning rate: a parabola in log10(lr) around `bestLr` (the shape of a tuning basin). */
export function basinLoss(lr: number, bestLr: number, floor = 0.5, curvature = 0.08): number {
  return floor + curvature * (Math.log10(lr) - Math.log10(bestLr)) ** 2;
}

/** A grid over learning rates × seeds, the true optimum at `bestLr`. */
export function lrGrid(lrs: readonly number[], seeds: readonly number[], bestLr: number, extra: Partial<RunSpec> = {}): RunSpec[] {
  return lrs.flatMap((lr) => seeds.map((seed) => ({ name: `lr${lr}-s${seed}`, params: { lr }, level: basinLoss(lr, bestLr), seed, ...extra })));
}

/** Random search: `n` configurations with log-uniform lr in `lrRange` and uniform weight decay (which has no effect), one seed each. */
export function randomSearch(n: number, seed: number, bestLr: number, lrRange: [number, number] = [1e-4, 1e-1]): RunSpec[] {
  const rng = new Prng(seed);
  return Array.from({ length: n }, (_, i) => {
    const lr = Number(rng.logUniform(...lrRange).toPrecision(3));
    const weightDecay = Number(rng.uniform(0, 0.1).toPrecision(3));
    return { name: `trial-${i}`, params: { lr, weight_decay: weightDecay }, level: basinLoss(lr, bestLr), seed: seed * 1000 + i };
  });
}
