import type { TestProject } from "vitest/node";
import { installedMlflowReleases, launchMlflowServer } from "./mlflow-server.js";

/**
 * vitest globalSetup of the MLflow tier: one tracking server per installed release for the whole run, launched
 * here without waiting (they boot while the first test files run; sharedMlflowServer waits for /health) and
 * stopped at the end. A start costs about 14 s of CPU (MLflow 3.17, measured here): started per file and release,
 * the tier made 8 of them; now 2.
 */
export default async function sharedMlflowServers(project: TestProject): Promise<() => Promise<void>> {
  const servers = await Promise.all(installedMlflowReleases().map(launchMlflowServer));
  project.provide(
    "mlflowServers",
    servers.map(({ release, url, dir, pid }) => ({ version: release.version, url, dir, pid })),
  );
  return async () => {
    await Promise.all(servers.map((s) => s.stop()));
  };
}
