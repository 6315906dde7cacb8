// Mutation testing of the detectors and the rules they share (npm run mutate; on demand, not in CI: a full run
// takes hours on two cores). Scope a run with --mutate, e.g.
//   npm run mutate -- --mutate "nodes/checkpoint/detectors/**/*.ts"
// The score and the surviving mutants that matter are in docs/mutation.md.
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  // Only the unit tests that import a mutated file run (vitest --related), each mutant against the tests that
  // cover it (perTest coverage).
  vitest: { configFile: "vitest.mutation.config.ts", related: true },
  coverageAnalysis: "perTest",
  mutate: [
    "nodes/*/detectors/**/*.ts",
    "nodes/dataset/detector.ts",
    "nodes/checks/detector.ts",
    "nodes/dataset/shares.ts",
    "nodes/training/{chance,curves,excursions,learning-rate,progress,stats}.ts",
  ],
  // In place, not in a sandbox copy: Stryker copies a symlinked folder (test/fixtures/samples) as a file and
  // fails; it puts every mutated file back at the end (do not edit or commit the detectors while it runs).
  inPlace: true,
  // vitest does not type-check, and in place Stryker would otherwise write `// @ts-nocheck` into every test file.
  disableTypeChecks: false,
  tempDirName: ".cache/stryker-tmp",
  concurrency: 1,
  timeoutMS: 20_000,
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: ".cache/mutation/mutation.json" },
  thresholds: { high: 80, low: 70, break: null },
};
