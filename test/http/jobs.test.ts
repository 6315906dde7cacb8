import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobView } from "../../jobs/job.js";
import { type FakeOpenAI, fakeModelEnv, startFakeOpenAI } from "../support/fake-openai.js";
import { postJson, type RunningService, startService } from "../support/http-service.js";
import { readSse } from "../support/sse.js";
import { lrGrid, syntheticRun } from "../support/synthetic-sweep.js";

const sample = JSON.parse(readFileSync(new URL("../fixtures/samples/full-image-classification.json", import.meta.url), "utf8")) as Record<string, unknown>;

async function getJob(url: string, id: string): Promise<{ status: number; json: JobView & { detail?: string } }> {
  const res = await fetch(`${url}/v1/jobs/${id}`);
  return { status: res.status, json: (await res.json()) as JobView & { detail?: string } };
}

/** Polls the job until `done(view)` holds. */
async function until(url: string, id: string, done: (job: JobView) => boolean): Promise<JobView> {
  for (;;) {
    const { json } = await getJob(url, id);
    if (done(json)) return json;
    await new Promise((r) => setTimeout(r, 50));
  }
}
const finished = (job: JobView) => ["done", "failed", "cancelled"].includes(job.state);

describe("jobs in this process (no SERVICE_REDIS_URL)", () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(async () => {
    await svc.service.jobs.close();
    await svc.close();
  });

  it("answers 202 with an id, and the job ends done with the synchronous endpoint's response", async () => {
    const submitted = await postJson(`${svc.url}/v1/jobs`, sample);
    expect(submitted.status).toBe(202);
    expect(submitted.json).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(submitted.headers.get("location")).toBe(`/v1/jobs/${submitted.json.id}`);
    const job = await until(svc.url, submitted.json.id, finished);
    const sync = await postJson(`${svc.url}/v1/analyse`, sample);
    expect(job).toMatchObject({ id: submitted.json.id, state: "done", error: null });
    expect(job.progress?.nodes_finished).toBeGreaterThan(0);
    expect(job.result).toEqual(sync.json);
  });

  it("runs a body with `runs` as a comparison, with /v1/compare's response", async () => {
    const body = { runs: lrGrid([1e-4, 1e-3, 1e-2], [1, 2], 1e-2).map((r) => syntheticRun(r)) };
    const { status, json } = await postJson(`${svc.url}/v1/jobs`, body);
    expect(status).toBe(202);
    const job = await until(svc.url, json.id, finished);
    expect(job.state).toBe("done");
    expect(job.progress).toEqual({ runs_done: 6, runs_total: 6, message: "6 of 6 runs analysed" });
    expect(job.result).toEqual((await postJson(`${svc.url}/v1/compare`, body)).json);
    const empty = await postJson(`${svc.url}/v1/jobs`, { runs: [] });
    expect(empty.status).toBe(400);
    expect(empty.json.detail).toMatch(/^Error decoding request: runs/);
  });

  it("streams the job's states as server-sent events and ends with the result", async () => {
    const { json } = await postJson(`${svc.url}/v1/jobs`, sample);
    const res = await fetch(`${svc.url}/v1/jobs/${json.id}/events`);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = await readSse(res);
    const last = events.at(-1)!;
    expect(last.event).toBe("result");
    expect(events.slice(0, -1).every((e) => e.event === "state" && e.data.id === json.id)).toBe(true);
    expect(events.at(-2)!.data.state).toBe("done");
    expect(last.data).toEqual((await getJob(svc.url, json.id)).json.result);
  });

  it("refuses an unknown id (404), a body that is not an analysis (400), and counts jobs in /metrics", async () => {
    const unknown = await getJob(svc.url, "00000000-0000-0000-0000-000000000000");
    expect(unknown.status).toBe(404);
    expect(unknown.json.detail).toMatch(/no job 00000000-.*SERVICE_JOB_RETENTION_MS/);
    expect((await fetch(`${svc.url}/v1/jobs/00000000-0000-0000-0000-000000000000`, { method: "DELETE" })).status).toBe(404);
    expect((await fetch(`${svc.url}/v1/jobs/x/events`)).status).toBe(404);
    const bad = await postJson(`${svc.url}/v1/jobs`, {});
    expect(bad.status).toBe(400);
    expect(bad.json.detail).toMatch(/^Error decoding request: \(body\): nothing to analyze/);
    const wrongType = await postJson(`${svc.url}/v1/jobs`, { training_artifacts: 3 });
    expect(wrongType.status).toBe(400);
    const metrics = await (await fetch(`${svc.url}/metrics`)).text();
    expect(metrics).toMatch(/^jobs_done_total [1-9]/m);
    expect(metrics).toMatch(/^job_queue_depth 0$/m);
    expect(metrics).toMatch(/^knowledge_cache_hit_ratio (0|1|0\.\d+)$/m);
  });
});

describe("jobs held by a slow model", () => {
  let fake: FakeOpenAI;
  let svc: RunningService;
  beforeAll(async () => {
    // Every model call waits a minute: a job is running for as long as the test needs it to.
    fake = await startFakeOpenAI(() => ({ delayMs: 60_000, content: "{}" }));
    svc = await startService(fakeModelEnv(fake.baseURL, { SERVICE_LLM_API_KEY: "sk-jobs-test", SERVICE_JOB_WORKERS: "1", SERVICE_MAX_QUEUED_JOBS: "1" }));
  });
  afterAll(async () => {
    await svc.service.jobs.close();
    await svc.close();
    await fake.close();
  });

  it("refuses a job beyond the queue bound with 503 and Retry-After, and DELETE cancels running and queued jobs", async () => {
    const running = (await postJson(`${svc.url}/v1/jobs`, sample)).json.id as string;
    await until(svc.url, running, (j) => j.state === "running");
    await until(svc.url, running, () => fake.requests.length > 0);
    const queued = await postJson(`${svc.url}/v1/jobs`, sample);
    expect(queued.status).toBe(202);
    expect((await getJob(svc.url, queued.json.id)).json.state).toBe("queued");
    const refused = await postJson(`${svc.url}/v1/jobs`, sample);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(refused.json.detail).toMatch(/SERVICE_MAX_QUEUED_JOBS/);

    const cancelled = await fetch(`${svc.url}/v1/jobs/${queued.json.id}`, { method: "DELETE" });
    expect(cancelled.status).toBe(200);
    expect(((await cancelled.json()) as JobView).state).toBe("cancelled");
    const stopped = (await (await fetch(`${svc.url}/v1/jobs/${running}`, { method: "DELETE" })).json()) as JobView;
    expect(stopped.state).toBe("cancelled");
    // The model call the job was waiting on is abandoned, not left to run.
    await until(svc.url, running, () => fake.abandoned > 0);
    expect((await getJob(svc.url, running)).json).toMatchObject({ state: "cancelled", result: null });
    const metrics = await (await fetch(`${svc.url}/metrics`)).text();
    expect(metrics).toMatch(/^jobs_cancelled_total 2$/m);
  });
});
