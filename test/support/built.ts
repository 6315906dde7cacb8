import { join } from "node:path";

/** The run's production build (test/support/test-build.ts, a globalSetup of the tiers project). */
function buildHome(): string {
  const home = process.env.ML_DIAGNOSE_TEST_BUILD;
  if (!home) throw new Error("ML_DIAGNOSE_TEST_BUILD is not set: run the test through vitest.config.ts, whose globalSetup builds");
  return home;
}

/** The compiled output, laid out as dist/ is after `npm run build`. */
export const builtDist = (): string => join(buildHome(), "dist");

/** The ml-diagnose launcher beside the build: `node <it> …` runs the compiled client, as an installed command does. */
export const builtCli = (): string => join(buildHome(), "client", "bin", "ml-diagnose.mjs");

/** The service's compiled entry: `node --enable-source-maps <it>` is `npm start`. */
export const builtServer = (): string => join(builtDist(), "server", "main.js");
