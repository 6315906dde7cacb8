import { defineConfig } from "vitest/config";

// Test files that must see the libraries as they ship, before any module of ours has patched them in the same
// process: graph/lean-run-context.ts swaps LangChain's run-context provider for the whole process once imported.
const NEED_A_FRESH_PROCESS = ["test/graph/lean-run-context.test.ts"];

const shared = {
  setupFiles: ["test/support/own-workspaces.ts"],
  testTimeout: 30_000,
  hookTimeout: 600_000,
  // Integration tiers start real servers (MLflow, Chromium): run files in a bounded pool on two cores.
  pool: "forks" as const,
  maxWorkers: 2,
  // Forked workers expose gc(): the deadline tests collect garbage in the middle of requests.
  execArgv: ["--expose-gc"],
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: "tiers",
          include: ["test/**/*.test.ts"],
          exclude: NEED_A_FRESH_PROCESS,
          // Files share their worker's module graph: each restores what it changes (timers, env, spies, servers),
          // and importing the graph once per worker instead of once per file halves the unit and HTTP tiers' time.
          isolate: false,
          // A temp directory per run, removed at the end: test runs leave nothing in the system's; and the production
          // build the processes the tests start run from. Set up once, here, before any worker of either project starts.
          globalSetup: ["test/support/private-tmpdir.ts", "test/support/test-build.ts"],
        },
      },
      { test: { ...shared, name: "fresh-process", include: NEED_A_FRESH_PROCESS } },
    ],
  },
});
