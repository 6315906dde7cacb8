import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, runCli } from "../support/client-process.js";
import { fakeModelEnv, type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startProcess } from "../support/service-process.js";

/**
 * Fifteen `ml-diagnose analyse` processes at once against one real service process, as parallel CI jobs on one
 * runner do. The service's model answers after a delay, so each analysis holds its request for seconds and the
 * per-client limit (SERVICE_MAX_CONCURRENT_PER_CLIENT, 4 by default: every process shares 127.0.0.1) refuses
 * most of them at first; each must wait its turn within --max-wait and exit 0.
 */

const KERAS_CSV = "test/fixtures/training/keras-csvlogger.csv";
const CLIENTS = 15;
const MAX_WAIT_S = 150;

let model: FakeOpenAI;
let service: Awaited<ReturnType<typeof startProcess>>;

beforeAll(async () => {
  model = await startFakeOpenAI(() => ({ content: "not json", delayMs: 1000 }));
  service = await startProcess(fakeModelEnv(model.baseURL, { SERVICE_LLM_MAX_RETRIES: "0" }));
}, 90_000);
afterAll(async () => {
  service?.child.kill("SIGKILL");
  await model?.close();
});

describe("parallel CI jobs against one service", () => {
  it(`${CLIENTS} clients over the per-client limit all exit 0 within --max-wait`, { timeout: 400_000 }, async () => {
    const started = Date.now();
    const runs: CliRun[] = await Promise.all(
      Array.from({ length: CLIENTS }, () => runCli(["analyse", KERAS_CSV, "--format", "json", "-q", "--max-wait", String(MAX_WAIT_S)], { ML_DIAGNOSE_SERVER: service.url })),
    );
    const elapsedS = (Date.now() - started) / 1000;
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    // The limit was reached (else this test proves nothing): some client was refused and waited.
    expect(runs.filter((r) => /retry \d+ in [\d.]+ s: the service (answered 429|closed the connection)/.test(r.stderr)).length).toBeGreaterThan(0);
    for (const r of runs) expect(JSON.parse(r.stdout)).toHaveProperty("agent_results");
    expect(elapsedS).toBeLessThan(MAX_WAIT_S + 60);
  });
});
