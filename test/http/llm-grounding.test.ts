import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_NAMES, type AgentResult, SEVERITIES, type Severity, severityRank } from "../../domain/result.js";
import type { GroundingReport } from "../../domain/grounding.js";
import type { Span } from "../../domain/trace.js";
import { type ChatRequestBody, type FakeOpenAI, type FakeReply, fakeModelEnv, isRetry, modelAnswer, requestAgent, startFakeOpenAI } from "../support/fake-openai.js";
import { postJson, type RunningService, startService } from "../support/http-service.js";

const sample = JSON.parse(readFileSync(new URL("../fixtures/samples/tabular-drift-evidently.json", import.meta.url), "utf8")) as Record<string, unknown>;
const ANALYZERS = [AGENT_NAMES.dataset, AGENT_NAMES.checks, AGENT_NAMES.training];
const AGENTS = [...ANALYZERS, AGENT_NAMES.integrate, AGENT_NAMES.advise];
const NODE_OF: Record<string, string> = {
  [AGENT_NAMES.dataset]: "analyzeDataset",
  [AGENT_NAMES.checks]: "analyzeChecks",
  [AGENT_NAMES.training]: "analyzeTraining",
  [AGENT_NAMES.integrate]: "integrate",
  [AGENT_NAMES.advise]: "advise",
};

/** A sentence stating numbers found nowhere in the artifacts, written in each language's number format. */
const INVENTED: Record<string, { sentence: string; marks: string[] }> = {
  en: { sentence: "Validation loss rose by 987.65 % after epoch 6,173.", marks: ["987.65", "6,173"] },
  fr: { sentence: "La perte de validation a augmenté de 987,65 % après l'époque 6 173.", marks: ["987,65", "6 173"] },
  es: { sentence: "La pérdida de validación aumentó un 987,65 % tras la época 6.173.", marks: ["987,65", "6.173"] },
};

type Answer = Record<string, unknown> & { summary?: string; advice?: string; findings?: Array<Record<string, unknown>>; new_findings?: Array<Record<string, unknown>> };

/** The well-behaved answer, changed by `edit`. */
function edited(body: ChatRequestBody, edit: (answer: Answer) => void): FakeReply {
  const reply = modelAnswer(body);
  const answer = JSON.parse(reply.content!) as Answer;
  edit(answer);
  return { content: JSON.stringify(answer) };
}

/** Adds `sentence` to every text the model writes: summaries, finding descriptions, the advice. */
function appendEverywhere(sentence: string) {
  return (body: ChatRequestBody) =>
    edited(body, (a) => {
      if (typeof a.summary === "string") a.summary = `${a.summary} ${sentence}`;
      if (typeof a.advice === "string") a.advice = `${a.advice} ${sentence}`;
      for (const f of a.findings ?? []) f.description = `${String(f.description)} ${sentence}`;
    });
}

/** The well-behaved model, except that it writes English whatever it was asked. */
const ENGLISH_ANSWER = (body: ChatRequestBody) =>
  modelAnswer({
    ...body,
    messages: body.messages.map((m) =>
      m.role === "system" ? { ...m, content: m.content.replace(/Write every text value in .+? \(language code [^)]+\)/, "Write every text value in English (language code en)") } : m,
    ),
  });

interface Outcome {
  status: number;
  json: {
    agent_results: Record<string, AgentResult>;
    summary: string | null;
    additional_outputs: { grounding?: Record<string, GroundingReport>; trace?: { spans: Span[] }; advice?: string };
    error_messages: Record<string, string>;
  };
  requests: ChatRequestBody[];
}

describe("grounding the model's answers (HTTP, fake OpenAI-compatible server)", () => {
  let fake: FakeOpenAI;
  let svc: RunningService;
  let script: (body: ChatRequestBody) => FakeReply = modelAnswer;
  let baseline: Outcome["json"];

  async function analyse(language: string, scriptFor: (body: ChatRequestBody) => FakeReply): Promise<Outcome> {
    script = scriptFor;
    const before = fake.requests.length;
    const res = await postJson(`${svc.url}/v1/analyse`, { ...sample, language, trace: true });
    return { status: res.status, json: res.json as Outcome["json"], requests: fake.requests.slice(before).map((r) => r.body) };
  }
  const spanOf = (o: Outcome, agent: string) => o.json.additional_outputs.trace!.spans.find((s) => s.node === NODE_OF[agent])!;
  const grounding = (o: Outcome) => o.json.additional_outputs.grounding!;

  beforeAll(async () => {
    fake = await startFakeOpenAI((body) => script(body));
    svc = await startService(fakeModelEnv(fake.baseURL, { SERVICE_LLM_MAX_TOKENS: "2000" }));
    const plain = await startService();
    baseline = (await postJson(`${plain.url}/v1/analyse`, sample)).json as Outcome["json"];
    await plain.close();
  });
  afterAll(async () => {
    await svc.close();
    await fake.close();
  });

  it("keeps a correct answer whole and reports every agent checked and grounded", async () => {
    const o = await analyse("fr", modelAnswer);
    expect(o.status).toBe(200);
    expect(o.json.error_messages).toEqual({});
    expect(Object.keys(grounding(o)).sort()).toEqual([...AGENTS].sort());
    for (const agent of AGENTS) {
      expect(grounding(o)[agent], agent).toMatchObject({ removed: 0, language: { expected: "fr", detected: "fr", outcome: "ok" } });
      expect(grounding(o)[agent]!.checked, agent).toBeGreaterThan(0);
      expect(spanOf(o, agent).grounding, agent).toMatchObject({ removed: 0 });
    }
    expect(o.json.summary).toMatch(/^\[fr\] cross-artifact summary: /);
  });

  for (const language of ["en", "fr", "es"] as const) {
    it(`removes invented numbers written in ${language} format from every text and says so`, async () => {
      const { sentence, marks } = INVENTED[language]!;
      const o = await analyse(language, appendEverywhere(sentence));
      expect(o.status).toBe(200);
      expect(o.json.error_messages).toEqual({});
      const text = JSON.stringify(o.json);
      for (const mark of marks) expect(text).not.toContain(mark);
      expect(o.json.summary).toMatch(new RegExp(`^\\[${language}\\] cross-artifact summary: `));
      for (const agent of AGENTS) {
        expect(grounding(o)[agent]!.reasons.number, agent).toBeGreaterThan(0);
        expect(spanOf(o, agent).grounding!.reasons.number, agent).toBe(grounding(o)[agent]!.reasons.number);
      }
      // The detector findings are all there, their evidence untouched; their descriptions keep the model's grounded sentence.
      for (const agent of ANALYZERS) {
        const detectors = o.json.agent_results[agent]!.findings.filter((f) => f.source === "detector");
        expect(detectors.map((f) => [f.id, f.evidence])).toEqual(baseline.agent_results[agent]!.findings.map((f) => [f.id, f.evidence]));
        for (const f of detectors) expect(f.description).toMatch(new RegExp(`^\\[${language}\\] ${f.id.replace(/\./g, "\\.")}: `));
      }
    });
  }

  it("shows in the HTML report what grounding removed, counts and reasons, never the removed text", async () => {
    script = appendEverywhere(INVENTED.fr!.sentence);
    const res = await fetch(`${svc.url}/v1/report`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...sample, language: "fr" }) });
    const page = await res.text();
    expect(res.status).toBe(200);
    const section = page.slice(page.indexOf("Grounding of the model"));
    expect(section).toMatch(/<td>TrainingArtifactsAnalyzer<\/td><td>\d+<\/td><td>\d+<\/td><td class="outcome-error">\d+<\/td><td>number \d+<\/td>/);
    expect(section).toContain("fr → fr (ok)");
    for (const mark of INVENTED.fr!.marks) expect(page).not.toContain(mark);
  });

  it("drops a cited finding id that does not exist, and the rewording of a finding that does not exist", async () => {
    const o = await analyse("en", (body) =>
      edited(body, (a) => {
        if (typeof a.summary === "string") a.summary = `${a.summary} See training.gradient_vanishing_made_up for the cause.`;
        a.findings?.push({ ...a.findings[0], id: "dataset.made_up_finding", description: "Invented." });
      }),
    );
    expect(JSON.stringify(o.json)).not.toMatch(/made_up/);
    for (const agent of [...ANALYZERS, AGENT_NAMES.integrate]) expect(grounding(o)[agent]!.reasons.unknown_id, agent).toBeGreaterThan(0);
    expect(spanOf(o, AGENT_NAMES.integrate).grounding!.reasons.unknown_id).toBeGreaterThan(0);
  });

  it("never lets the model raise a severity: its own findings stay at or below the detectors', severity words above them go", async () => {
    const o = await analyse("en", (body) =>
      edited(body, (a) => {
        for (const f of a.new_findings ?? []) f.severity = "high";
        for (const f of a.findings ?? []) f.description = `${String(f.description)} This is a critical failure of the run.`;
      }),
    );
    expect(o.status).toBe(200);
    for (const agent of ANALYZERS) {
      const result = o.json.agent_results[agent]!;
      const before = baseline.agent_results[agent]!;
      expect(result.severity, agent).toBe(before.severity);
      const topDetector = before.findings.reduce<Severity>((top, f) => (severityRank(f.severity) < severityRank(top) ? f.severity : top), "info");
      for (const f of result.findings.filter((x) => x.source === "llm")) {
        expect(severityRank(f.severity), `${agent} ${f.id}`).toBeGreaterThanOrEqual(severityRank(topDetector));
        expect(f.confidence).toBeLessThan(Math.min(...before.findings.map((d) => d.confidence)));
      }
      if (!before.findings.some((f) => f.severity === "critical")) expect(JSON.stringify(result.findings)).not.toMatch(/critical failure/);
      expect(grounding(o)[agent]!.reasons.severity, agent).toBeGreaterThan(0);
    }
    expect(SEVERITIES).toContain(o.json.agent_results[AGENT_NAMES.dataset]!.severity);
  });

  it("asks once more, more firmly, when the model answers in the wrong language, and keeps a right second answer", async () => {
    const o = await analyse("fr", (body) => (isRetry(body) ? modelAnswer(body) : ENGLISH_ANSWER(body)));
    expect(o.json.error_messages).toEqual({});
    expect(o.requests).toHaveLength(2 * AGENTS.length);
    for (const r of o.requests.filter(isRetry)) expect(r.messages.at(-1)!.content).toMatch(/not in French.*written in French \(language code fr\)/s);
    for (const agent of AGENTS) expect(grounding(o)[agent]!.language, agent).toEqual({ expected: "fr", detected: "fr", outcome: "retried" });
    expect(o.json.summary).toMatch(/^\[fr\] /);
  });

  it("falls back to the deterministic text when the model answers in the wrong language twice, and says so", async () => {
    const o = await analyse("fr", ENGLISH_ANSWER);
    expect(o.status).toBe(200);
    expect(o.requests.map(requestAgent).sort()).toEqual([...AGENTS, ...AGENTS].sort());
    expect(Object.keys(o.json.error_messages).sort()).toEqual([...AGENTS].sort());
    for (const agent of AGENTS) {
      expect(o.json.error_messages[agent], agent).toMatch(/answered in en instead of French \(fr\) twice/);
      expect(grounding(o)[agent]!.language, agent).toEqual({ expected: "fr", detected: "en", outcome: "fallback" });
      expect(spanOf(o, agent).grounding!.reasons.language, agent).toBe(1);
    }
    for (const agent of ANALYZERS) expect(o.json.agent_results[agent]!.findings).toEqual(baseline.agent_results[agent]!.findings);
    expect(o.json.summary).toContain(baseline.summary!);
    expect(JSON.stringify(o.json)).not.toContain("[en]");
  });
});
