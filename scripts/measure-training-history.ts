// Measures the training analyzer alone (parse → detectors → facts → digest) on a 10^6-step × 6-metric history in
// the shapes large histories arrive in: metric arrays, MLflow point objects and a CSV text, and on the same
// history with trouble written in (test/support/large-histories.ts), whose findings each cost a conclusive-step
// bisection. CPU time per stage, the least of `repeats` runs (the machine is shared: CPU time is the steadier
// figure), against a native JSON.parse of the bench's request body; heap/RSS growth of the first run.
// Run: npx tsx scripts/measure-training-history.ts [steps] [repeats]
// (The whole service, HTTP body included, is measured by `npm run bench` → history_scaling.)
import { trainingHistory, trainingHistoryRequest } from "../bench/data/training-history.js";
import { detectTrainingFindings } from "../nodes/training/detect.js";
import { trainingDigest } from "../nodes/training/digest.js";
import { trainingFacts } from "../nodes/training/facts-of.js";
import { parseTrainingArtifact } from "../nodes/training/parse/index.js";
import { largeHistoryCases } from "../test/support/large-histories.js";

const steps = Number(process.argv[2] ?? 1_000_000);
const repeats = Number(process.argv[3] ?? 5);
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const cpuMs = () => process.cpuUsage().user / 1000;

/** CPU ms of f and its result. */
function cpuOf<T>(f: () => T): [number, T] {
  const t = cpuMs();
  const value = f();
  return [cpuMs() - t, value];
}

function shapes(): Array<[string, () => Record<string, unknown>]> {
  const arrays = trainingHistory(steps);
  const troubled = largeHistoryCases(steps).find(([name]) => name === "troubled metric arrays")![1];
  return [
    ["metric arrays {name: number[]}", () => ({ metrics: arrays })],
    ["MLflow history {name: [{step, value, timestamp}]}", () => ({ metrics: Object.fromEntries(Object.entries(arrays).map(([k, v]) => [k, v.map((value, step) => ({ key: k, value, step, timestamp: 1.7e12 + step }))])) })],
    ["CSV text", () => ({ metrics: { format: "csv", content: [`step,${Object.keys(arrays).join(",")}`, ...arrays.train_loss.map((_, i) => `${i},${Object.values(arrays).map((v) => v[i]).join(",")}`)].join("\n") } })],
    ["troubled metric arrays (6 findings)", troubled],
  ];
}

const body = JSON.stringify(trainingHistoryRequest(steps));
const jsonParse = Math.min(...Array.from({ length: repeats }, () => cpuOf(() => JSON.parse(body))[0]));
console.log(`JSON.parse of the bench's ${mb(body.length)} request body: ${jsonParse.toFixed(0)} ms CPU`);
for (const [name, build] of shapes()) {
  const payload = build();
  globalThis.gc?.();
  const before = process.memoryUsage();
  const least = { parse: Number.POSITIVE_INFINITY, detect: Number.POSITIVE_INFINITY, rest: Number.POSITIVE_INFINITY };
  let growth = "";
  let found: string[] = [];
  // A fresh run each time: detectors memoize per run, so a repeat on one run would measure a lookup.
  for (let r = 0; r < repeats; r++) {
    const [parse, run] = cpuOf(() => parseTrainingArtifact(payload));
    const [detect, findings] = cpuOf(() => detectTrainingFindings(run));
    const [rest] = cpuOf(() => JSON.stringify([trainingFacts(run), trainingDigest(run, findings)]));
    least.parse = Math.min(least.parse, parse);
    least.detect = Math.min(least.detect, detect);
    least.rest = Math.min(least.rest, rest);
    if (r === 0) {
      const after = process.memoryUsage();
      growth = `heap +${mb(after.heapUsed - before.heapUsed)}, external+arrays +${mb(after.arrayBuffers - before.arrayBuffers)}, RSS ${mb(after.rss)}`;
      found = findings.map((f) => f.id);
    }
  }
  const total = least.parse + least.detect + least.rest;
  console.log(
    `${name}: ${steps} steps — CPU parse ${least.parse.toFixed(0)} ms, detectors ${least.detect.toFixed(0)} ms, facts+digest ${least.rest.toFixed(0)} ms, total ${total.toFixed(0)} ms (${(total / jsonParse).toFixed(2)}× JSON.parse); first run ${growth}; findings: ${found.join(", ") || "none"}`,
  );
}
