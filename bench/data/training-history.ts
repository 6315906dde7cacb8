/** mulberry32: a small, fast, seeded PRNG, so every run measures the same history. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal deviates from a uniform source (Box–Muller). */
function normal(random: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** Logged precision: six decimals, as training loggers write metrics. */
const logged = (x: number) => Math.round(x * 1e6) / 1e6;

export const HISTORY_METRICS = ["train_loss", "val_loss", "train_accuracy", "val_accuracy", "learning_rate", "grad_norm"] as const;

/**
 * A healthy, noisy training history of `points` steps for each of six metrics (`{name: number[]}`, index =
 * step): decaying losses with a small generalization gap, rising accuracies, warm-up then cosine learning
 * rate, and a gradient norm that settles.
 */
export function trainingHistory(points: number, seed = 20261122): Record<(typeof HISTORY_METRICS)[number], number[]> {
  const noise = normal(seededRandom(seed));
  const out = Object.fromEntries(HISTORY_METRICS.map((m) => [m, new Array<number>(points)])) as Record<(typeof HISTORY_METRICS)[number], number[]>;
  const warmup = Math.max(1, Math.floor(points * 0.01));
  for (let i = 0; i < points; i++) {
    const t = i / points;
    out.train_loss[i] = logged(Math.max(0.01, 2.3 * Math.exp(-5 * t) + 0.05 + 0.02 * noise()));
    out.val_loss[i] = logged(Math.max(0.01, 2.3 * Math.exp(-4.5 * t) + 0.12 + 0.03 * noise()));
    out.train_accuracy[i] = logged(Math.min(1, Math.max(0, 0.98 - 0.88 * Math.exp(-5 * t) + 0.005 * noise())));
    out.val_accuracy[i] = logged(Math.min(1, Math.max(0, 0.93 - 0.83 * Math.exp(-4.5 * t) + 0.008 * noise())));
    out.learning_rate[i] = logged(i < warmup ? (1e-3 * (i + 1)) / warmup : 1e-3 * 0.5 * (1 + Math.cos(Math.PI * t)));
    out.grad_norm[i] = logged(Math.abs(0.6 + 2 * Math.exp(-8 * t) + 0.15 * noise()));
  }
  return out;
}

/** A whole analysis request holding only a training history of `points` steps × 6 metrics. */
export function trainingHistoryRequest(points: number): Record<string, unknown> {
  return {
    dataset_name: `bench-history-${points}`,
    language: "english",
    training_artifacts: {
      metrics: trainingHistory(points),
      params: { optimizer: "AdamW", lr: 1e-3, weight_decay: 0.01, batch_size: 64, max_steps: points, scheduler: "cosine" },
    },
  };
}

/**
 * The UTF-8 bytes of `JSON.stringify(trainingHistoryRequest(points))`, in shared memory as server/intake.ts receives
 * a body with a declared length, written number by number: the history_scaling process never holds the body as a
 * string nor JSON.stringify's buffers, whose peak RSS the service never has (it receives bytes).
 */
export function trainingHistoryBody(points: number): Buffer {
  const request = trainingHistoryRequest(points) as { training_artifacts: { metrics: Record<string, number[]> } };
  const { metrics } = request.training_artifacts;
  const slot = JSON.stringify("\u0000");
  const pieces = JSON.stringify({ ...request, training_artifacts: { ...request.training_artifacts, metrics: Object.fromEntries(Object.keys(metrics).map((m) => [m, "\u0000"])) } }).split(slot);
  const arrays = Object.values(metrics);
  let length = pieces.reduce((sum, p) => sum + Buffer.byteLength(p), 0);
  for (const values of arrays) length += 1 + values.reduce((sum, v) => sum + String(v).length + 1, 0);
  const body = Buffer.from(new SharedArrayBuffer(length));
  let at = body.write(pieces[0]!);
  arrays.forEach((values, i) => {
    at += body.write("[", at);
    values.forEach((v, j) => (at += body.write(j === 0 ? String(v) : `,${String(v)}`, at, "latin1")));
    at += body.write("]", at);
    at += body.write(pieces[i + 1]!, at);
  });
  return body;
}
