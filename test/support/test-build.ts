import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;

/**
 * vitest globalSetup: the production build of this checkout, made once per test run (scripts/build.mjs into
 * .cache/test-build-<pid>/dist, beside a copy of the ml-diagnose launcher, so the launcher finds it as it finds dist/
 * in an install). The processes the tests start (`ml-diagnose`, the service) run from it, as users run them:
 * compiled, without tsx's loader, which took twice the CPU to start each of the run's ~90 processes; built from the
 * sources under test, so never a stale dist/. Inside the checkout, so the built files resolve node_modules.
 */
export default function testBuild(): () => void {
  // The service and MLflow projects both list this setup; the first builds and removes the build at the end.
  if (process.env.ML_DIAGNOSE_TEST_BUILD) return () => {};
  const home = join(ROOT, ".cache", `test-build-${process.pid}`);
  const built = spawnSync(process.execPath, ["scripts/build.mjs", "--out-dir", join(home, "dist")], { cwd: ROOT, encoding: "utf8" });
  if (built.status !== 0) throw new Error(`the test build (scripts/build.mjs) failed:\n${built.stdout}${built.stderr}`);
  mkdirSync(join(home, "client", "bin"), { recursive: true });
  copyFileSync(join(ROOT, "client", "bin", "ml-diagnose.mjs"), join(home, "client", "bin", "ml-diagnose.mjs"));
  process.env.ML_DIAGNOSE_TEST_BUILD = home;
  return () => {
    delete process.env.ML_DIAGNOSE_TEST_BUILD;
    rmSync(home, { recursive: true, force: true });
  };
}
