import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // A temp directory per run, removed at the end: test runs leave nothing in the system's.
    globalSetup: ["test/support/private-tmpdir.ts"],
    setupFiles: ["test/support/own-workspaces.ts"],
    testTimeout: 30_000,
    hookTimeout: 600_000,
    // Integration tiers start real servers (MLflow, Chromium): run files in a bounded pool on two cores.
    pool: "forks",
    maxWorkers: 2,
    // Forked workers expose gc(): the deadline tests collect garbage in the middle of requests.
    execArgv: ["--expose-gc"],
  },
});
