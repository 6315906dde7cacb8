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

// A temp directory per run, removed at the end: test runs leave nothing in the system's (the first project's setup
// makes it, before any worker starts; the others' find it made).
const PRIVATE_TMPDIR = "test/support/private-tmpdir.ts";
// The production build the processes the service tiers start run from (made once, only when these tiers run).
const TEST_BUILD = "test/support/test-build.ts";
const MLFLOW_TIER = ["test/int/mlflow/**/*.test.ts"];

export default defineConfig({
  test: {
    projects: [
      // Files share their worker's module graph (isolate: false): each restores what it changes (timers, env, spies,
      // servers), and importing the graph once per worker instead of once per file halves the tiers' time.
      { test: { ...shared, name: "unit", include: ["test/unit/**/*.test.ts"], isolate: false, globalSetup: [PRIVATE_TMPDIR] } },
      {
        test: {
          ...shared,
          name: "service",
          include: ["test/**/*.test.ts"],
          exclude: ["test/unit/**", ...MLFLOW_TIER, ...NEED_A_FRESH_PROCESS],
          isolate: false,
          globalSetup: [PRIVATE_TMPDIR, TEST_BUILD],
        },
      },
      // The MLflow tier shares one tracking server per release for the run, started only when its files run.
      {
        test: {
          ...shared,
          name: "mlflow",
          include: MLFLOW_TIER,
          isolate: false,
          globalSetup: [PRIVATE_TMPDIR, TEST_BUILD, "test/support/shared-mlflow-servers.ts"],
        },
      },
      { test: { ...shared, name: "fresh-process", include: NEED_A_FRESH_PROCESS, globalSetup: [PRIVATE_TMPDIR] } },
    ],
  },
});
