/**
 * Measures the regression rule of POST /v1/compare on seeded synthetic pairs (test/support/synthetic-sweep.ts):
 * the false "regression" rate over pairs that differ only by seed, and the detection rate of a 5 % worse
 * objective, at the generator's noise and around it, with one seed per configuration and with three.
 * Usage: npx tsx scripts/measure-experiments.ts [pairs]   (prints the markdown table of docs/experiments.md)
 */
import { measureRegression } from "../test/support/experiment-calibration.js";

const pairs = Number(process.argv[2] ?? 200);
const settings = [
  { label: "generator (seed 1 %, evaluation 1 %)", noise: { seedSd: 0.01, evalSd: 0.01 } },
  { label: "seed 0.5 %, evaluation 1 %", noise: { seedSd: 0.005, evalSd: 0.01 } },
  { label: "seed 2 %, evaluation 1 %", noise: { seedSd: 0.02, evalSd: 0.01 } },
];
console.log("| Noise | Seeds per configuration | False regressions (seed-only pairs) | 5 % worse detected |");
console.log("|---|---|---|---|");
for (const { label, noise } of settings) {
  for (const seeds of [1, 3]) {
    const r = measureRegression(pairs, 0.05, { noise, seeds });
    const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
    console.log(`| ${label} | ${seeds} | ${pct(r.falseRegressionRate)} of ${pairs} | ${pct(r.detectionRate)} of ${pairs} |`);
  }
}
