// Measures the training analyzer alone (parse → detectors → facts → digest) on a 10^6-step × 6-metric history in
// the shapes large histories arrive in: metric arrays, MLflow point objects, and a CSV text. Time per stage and
// heap/RSS growth. Run: npx tsx scripts/measure-training-history.ts [steps]
// (The whole service, HTTP body included, is measured by `npm run bench` → history_scaling.)
import { trainingHistory } from "../bench/data/training-history.js";
import { detectTrainingFindings } from "../nodes/training/detect.js";
import { trainingDigest } from "../nodes/training/digest.js";
import { trainingFacts } from "../nodes/training/facts-of.js";
import { parseTrainingArtifact } from "../nodes/training/parse/index.js";

const steps = Number(process.argv[2] ?? 1_000_000);
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

function shapes(): Array<[string, () => Record<string, unknown>]> {
  const arrays = trainingHistory(steps);
  return [
    ["metric arrays {name: number[]}", () => ({ metrics: arrays })],
    ["MLflow history {name: [{step, value, timestamp}]}", () => ({ metrics: Object.fromEntries(Object.entries(arrays).map(([k, v]) => [k, v.map((value, step) => ({ key: k, value, step, timestamp: 1.7e12 + step }))])) })],
    ["CSV text", () => ({ metrics: { format: "csv", content: [`step,${Object.keys(arrays).join(",")}`, ...arrays.train_loss.map((_, i) => `${i},${Object.values(arrays).map((v) => v[i]).join(",")}`)].join("\n") } })],
  ];
}

for (const [name, build] of shapes()) {
  const payload = build();
  globalThis.gc?.();
  const before = process.memoryUsage();
  const t0 = performance.now();
  const run = parseTrainingArtifact(payload);
  const t1 = performance.now();
  const findings = detectTrainingFindings(run);
  const t2 = performance.now();
  trainingFacts(run);
  const digest = JSON.stringify(trainingDigest(run, findings));
  const t3 = performance.now();
  const after = process.memoryUsage();
  console.log(
    `${name}: ${steps} steps × ${run.series.size} metrics — parse ${(t1 - t0).toFixed(0)} ms, detectors ${(t2 - t1).toFixed(0)} ms, facts+digest ${(t3 - t2).toFixed(0)} ms, total ${(t3 - t0).toFixed(0)} ms; heap +${mb(after.heapUsed - before.heapUsed)}, external+arrays +${mb(after.arrayBuffers - before.arrayBuffers)}, RSS ${mb(after.rss)}; digest ${digest.length} chars; findings: ${findings.map((f) => f.id).join(", ") || "none"}`,
  );
}
