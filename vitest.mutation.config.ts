import { defineConfig } from "vitest/config";

// The unit tests of the detectors and the rules they share, for StrykerJS (stryker.config.mjs): the test setup of
// vitest.config.ts without --expose-gc, which Stryker's worker threads refuse, and without the slower tiers.
// MUTATE_TESTS narrows them for a scoped run: a mutant of a module-level constant (a threshold) re-runs every test.
export default defineConfig({
  test: {
    include: [process.env.MUTATE_TESTS ?? "test/unit/{training,dataset,checks,checkpoint,experiment}/**/*.test.ts"],
    globalSetup: ["test/support/private-tmpdir.ts"],
    setupFiles: ["test/support/own-workspaces.ts"],
    testTimeout: 120_000,
  },
});
