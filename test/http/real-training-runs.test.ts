import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectFinding, expectNoFinding, expectNothingAbove, listing } from "../support/diagnosis.js";
import { postJson, type RunningService, startService } from "../support/http-service.js";
import { serialize } from "../support/mutate.js";
import { loadRunItems, type RunItem, type RunRequest, runRequests } from "../support/run-folders.js";

/**
 * The training part of the real-output corpus: run folders written by Lightning, the Hugging Face Trainer, Keras 3,
 * torch's SummaryWriter and MLflow's file store (scripts/fixtures/real/training_corpus.py), each sent the ways a
 * user sends it, over real HTTP in deterministic mode. Each item's expected.json was written from what the
 * generator did to the run, before the detectors were changed; an item with a `known_gap` is `it.fails`.
 */

const items = await loadRunItems();
const requests = new Map<string, RunRequest[]>(await Promise.all(items.map(async (item) => [item.name, await runRequests(item)] as const)));
const responses = new Map<string, { status: number; json: any }>();
let svc: RunningService;

beforeAll(async () => {
  svc = await startService();
  for (const item of items) {
    for (const r of requests.get(item.name)!) {
      // As Python's json.dumps writes it: a History full of NaN stays NaN (JSON.stringify would write null).
      const res = await postJson(`${svc.url}/v1/analyse`, serialize(r.body));
      responses.set(`${item.name} | ${r.label}`, { status: res.status, json: res.json });
    }
  }
}, 120_000);
afterAll(() => svc?.close());

function check(item: RunItem, label: string): void {
  const res = responses.get(`${item.name} | ${label}`)!;
  expect(res.status, JSON.stringify(res.json)?.slice(0, 400)).toBe(200);
  const body = res.json;
  expect(body.error_messages, listing(body)).toEqual({});
  for (const e of item.expectation.expected) expectFinding(body, e.id, e.min_severity);
  for (const id of item.expectation.absent) expectNoFinding(body, id);
  if (item.expectation.healthy) expectNothingAbove(body, "medium");
}

describe.each(items)("$name", (item) => {
  it("has at least one request body", () => expect(requests.get(item.name)!.length).toBeGreaterThan(0));
  for (const r of requests.get(item.name)!) {
    const test = item.expectation.known_gap ? it.fails : it;
    test(`${r.label}: ${item.expectation.healthy ? "nothing high or critical" : item.expectation.expected.map((e) => `${e.id} ≥ ${e.min_severity}`).join(", ")}`, () => check(item, r.label));
  }
});
