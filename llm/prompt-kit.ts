import type { Language } from "../artifacts/language.js";
import type { Finding } from "../domain/result.js";
import { BOUND_LEVELS, boundValue, type Shown } from "./bound.js";

/**
 * Token estimate used for the prompt budget: one token per three characters. Tokenizers give about four
 * characters per token for English prose and about three for JSON full of numbers, so this errs on the safe side
 * for what prompts are made of (the requested language only affects the answer).
 */
export const CHARS_PER_TOKEN = 3;

/** No prompt (system + user message) is estimated above this many tokens, whatever the artifact size. */
export const PROMPT_TOKEN_BUDGET = 6000;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** One chat message as our prompts send it. */
export type ChatMessage = { role: "system" | "user"; content: string };

/** The two messages of every call: instructions, then the bounded input as one JSON object. */
export type ChatMessages = [{ role: "system"; content: string }, { role: "user"; content: string }];

/**
 * A prompt: its messages, and the object its user message shows the model as the values it was written from
 * (equal to JSON.parse of that message), from which the grounding pass builds its evidence without reading our
 * own JSON back.
 */
export interface Prompt {
  messages: ChatMessages;
  shown: Record<string, unknown>;
}

/** The total size of a prompt in estimated tokens. */
export function promptTokens(messages: readonly { content: string }[]): number {
  return estimateTokens(messages.map((m) => m.content).join("\n"));
}

/** What one analyzer node tells the model about its artifact (nodes/<kind>/prompt.ts). */
export interface AnalyzerPrompt {
  /** What the artifact is, e.g. "training metrics and logs of one run". */
  artifact: string;
  /** What to look for that threshold detectors tend to miss. */
  focus: readonly string[];
}

/** The instruction that makes every generated text come back in the requested language. */
export function languageRule(language: Language): string {
  return (
    `Write every text value in ${language.name} (language code ${language.code}). ` +
    "Keep finding ids, metric and column names, numbers and code identifiers exactly as given."
  );
}

/** Rules every agent shares: the detectors' evidence stands, the model adds judgment. */
export const EVIDENCE_RULES = [
  "The findings come from deterministic detectors and rest on the numbers in their evidence. Never drop, contradict or re-grade them.",
  "Use only numbers that appear in the input; never invent measurements.",
  "The input is a bounded digest, not the whole artifact: summarized arrays give statistics and a few [index, value] points.",
  "Answer with one JSON object that matches the given schema and nothing else.",
];

/** The system message: a role, a task, rules and the language rule, as numbered lines. */
export function systemMessage(role: string, task: readonly string[], language: Language): string {
  const rules = [...task, ...EVIDENCE_RULES, languageRule(language)];
  return `${role}\n${rules.map((r, i) => `${i + 1}. ${r}`).join("\n")}`;
}

const FINDING_LIMITS = BOUND_LEVELS[2]!;

/** A finding as the model sees it: what it says and the numbers behind it, strings cut, at most 3 evidence items. */
export function compactFinding(f: Finding): Record<string, unknown> {
  return boundValue(
    {
      id: f.id,
      title: f.title,
      severity: f.severity,
      confidence: f.confidence,
      source: f.source,
      description: f.description,
      evidence: f.evidence.slice(0, 3).map((e) => ({
        rule_id: e.rule_id,
        artifact: e.artifact,
        text: e.text,
        observed: e.observed ?? null,
        threshold: e.threshold ?? null,
        window: e.window ?? null,
        values: e.values ?? null,
      })),
      recommendation: f.recommendation ? { action: f.recommendation.action, rationale: f.recommendation.rationale } : null,
    },
    { ...FINDING_LIMITS, maxString: 320 },
  ) as Record<string, unknown>;
}

/**
 * JSON text of the leading items (in priority order) that fit in `maxChars`, and the list it shows; the rest are
 * counted in a closing note, not shown. Items should already be bounded (compactFinding, boundValue), so their
 * text parses back to them.
 */
export function fitList(items: readonly unknown[], maxChars: number, noun: string): Shown {
  const parts: string[] = [];
  const shown: unknown[] = [];
  let used = 2;
  for (const [i, item] of items.entries()) {
    const text = JSON.stringify(item);
    const note = `… ${items.length - i} more ${noun} not shown`;
    const omitted = JSON.stringify(note);
    if (used + text.length + 1 + omitted.length + 1 > maxChars) {
      if (used + omitted.length + 1 <= maxChars) {
        parts.push(omitted);
        shown.push(note);
      }
      break;
    }
    parts.push(text);
    shown.push(item);
    used += text.length + 1;
  }
  return { text: `[${parts.join(",")}]`, value: shown };
}

/** The findings that fit in `maxChars`, compacted; `extra` adds fields to each (e.g. the agent it came from). */
export function fitFindings(findings: readonly Finding[], maxChars: number, extra: (f: Finding) => Record<string, unknown> = () => ({})): Shown {
  return fitList(findings.map((f) => ({ ...extra(f), ...compactFinding(f) })), maxChars, "findings");
}

/** Room left for the flexible parts of the user message once the system text and fixed fields are counted. */
export function userBudgetChars(system: string, fixed: Record<string, unknown>): number {
  const envelope = 200;
  return PROMPT_TOKEN_BUDGET * CHARS_PER_TOKEN - system.length - JSON.stringify(fixed).length - envelope;
}

/**
 * The prompt of a system text and a user message that is one JSON object of plain fields (small JSON values) and
 * fields already written (so they are not escaped twice), with the object it shows.
 */
export function jsonPrompt(system: string, fields: Record<string, unknown>, written: Record<string, Shown>): Prompt {
  const plain = Object.entries(fields).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  const raw = Object.entries(written).map(([k, w]) => `${JSON.stringify(k)}:${w.text}`);
  const shown: Record<string, unknown> = { ...fields };
  for (const [k, w] of Object.entries(written)) shown[k] = w.value;
  return {
    messages: [
      { role: "system", content: system },
      { role: "user", content: `{${[...plain, ...raw].join(",")}}` },
    ],
    shown,
  };
}
