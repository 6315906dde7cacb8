import { trainingHistory } from "../../bench/data/training-history.js";
import { detectTrainingFindings } from "../../nodes/training/detect.js";
import { trainingDigest } from "../../nodes/training/digest.js";
import { trainingFacts } from "../../nodes/training/facts-of.js";
import { trainingAnalyzer } from "../../nodes/training/node.js";
import { parseTrainingArtifact } from "../../nodes/training/parse/index.js";

/** Points per generated history: large enough for binning, block baselines and sampled noise to matter. */
export const LARGE_POINTS = 100_000;

type History = ReturnType<typeof trainingHistory>;

/**
 * The bench's healthy history with trouble written in: loss spikes (two recovered, one not), validation loss
 * turning up after 60 % (overfitting), a gradient-norm blow-up and a NaN tail on the training loss.
 */
function troubled(points: number): History {
  const h = trainingHistory(points, 7);
  for (const at of [0.2, 0.45]) for (let i = 0; i < 40; i++) h.train_loss[Math.floor(points * at) + i] = 3 + (i % 5) * 0.1;
  for (let i = Math.floor(points * 0.9); i < Math.floor(points * 0.905); i++) h.train_loss[i] = 5;
  for (let i = Math.floor(points * 0.6); i < points; i++) h.val_loss[i] = h.val_loss[i]! + 0.8 * ((i - points * 0.6) / points);
  for (let i = Math.floor(points * 0.95); i < points; i++) h.grad_norm[i] = 40 + (i % 97);
  for (let i = points - 200; i < points; i++) h.train_loss[i] = Number.NaN;
  return h;
}

/** MLflow's metric history shape: point objects with step, value and timestamp. */
const mlflowHistory = (h: History) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k, v.map((value, step) => ({ key: k, value: Number.isFinite(value) ? value : "NaN", step, timestamp: 1.7e12 + step }))]));

/** A CSV text with a step column, as CSVLoggers write it. */
const csvText = (h: History) =>
  [`step,${Object.keys(h).join(",")}`, ...h.train_loss.map((_, i) => `${i},${Object.values(h).map((v) => (Number.isFinite(v[i]!) ? v[i] : "nan")).join(",")}`)].join("\n");

const PARAMS = { optimizer: "AdamW", lr: 1e-3, weight_decay: 0.01, batch_size: 64, scheduler: "cosine" };

/** Generated `training_artifacts` whose detector output is pinned (test/unit/training/large-histories.test.ts). */
export function largeHistoryCases(points = LARGE_POINTS): Array<[string, () => Record<string, unknown>]> {
  return [
    ["healthy metric arrays", () => ({ metrics: trainingHistory(points), params: { ...PARAMS, max_steps: points } })],
    ["troubled metric arrays", () => ({ metrics: troubled(points), params: { ...PARAMS, max_steps: points } })],
    ["troubled MLflow history", () => ({ metrics: mlflowHistory(troubled(points)), params: PARAMS })],
    ["troubled CSV", () => ({ metrics: { format: "csv", content: csvText(troubled(points)) }, params: PARAMS })],
    [
      "troubled, still running",
      () => ({ metrics: troubled(points), params: PARAMS, metadata: { status: "running", expected_total_steps: 2 * points } }),
    ],
  ];
}

/** Everything the training analyzer derives from an artifact, as JSON (non-finite numbers spelled out). */
export function trainingOutputs(artifact: Record<string, unknown>): unknown {
  const run = parseTrainingArtifact(artifact);
  const findings = detectTrainingFindings(run);
  const output = { findings, grouped: trainingAnalyzer.detect(run), facts: trainingFacts(run), digest: trainingDigest(run, findings) };
  return JSON.parse(JSON.stringify(output, (_k, v: unknown) => (typeof v === "number" && !Number.isFinite(v) ? String(v) : v)));
}
