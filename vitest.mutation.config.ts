import { configDefaults, defineConfig } from "vitest/config";

// The unit tests of the detectors and the rules they share, for StrykerJS (stryker.config.mjs): the test setup of
// vitest.config.ts without --expose-gc, which Stryker's worker threads refuse, and without the slower tiers.
// MUTATE_TESTS narrows them for a scoped run: a mutant of a module-level constant (a threshold) re-runs every test.
export default defineConfig({
  test: {
    // The catalog test always runs: it holds each detector's record (title, thresholds, severities) to the docs.
    include: [process.env.MUTATE_TESTS ?? "test/unit/{training,dataset,checks,checkpoint,experiment}/**/*.test.ts", "test/unit/detector-catalog-docs.test.ts"],
    // Left out: tests of aggregate rates over corpora and sample requests (seconds to minutes each, re-run for every
    // static mutant; the boundary and contract tests pin the same decisions one by one) and the training parsers'.
    exclude: [
      ...configDefaults.exclude,
      "test/unit/**/{calibration,partial-run,samples,large-histories,real-corpus}.test.ts",
      "test/unit/training/parse-*.test.ts",
    ],
    globalSetup: ["test/support/private-tmpdir.ts"],
    setupFiles: ["test/support/own-workspaces.ts"],
    testTimeout: 120_000,
    // One module graph for every run of a worker: 2.2× faster, and the same verdict for each of the 51 mutants of
    // small-dataset.ts, static ones (thresholds) included, as with isolation.
    isolate: false,
  },
});
