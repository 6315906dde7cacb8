import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 600_000,
    // Integration tiers start real servers (MLflow, Chromium): run files in a bounded pool on two cores.
    pool: "forks",
    maxWorkers: 2,
  },
});
