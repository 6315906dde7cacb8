import type { Language } from "../../artifacts/language.js";
import type { ChatMessage } from "../prompt-kit.js";
import type { GroundingReport } from "../../domain/grounding.js";
import { GroundingTally } from "./report.js";

/** The model answered in another language than asked, twice: the caller keeps its deterministic text. */
export class LlmLanguageError extends Error {
  override name = "LlmLanguageError";
  constructor(message: string, readonly grounding: GroundingReport) {
    super(message);
  }
}

/** The grounding report an error carries (a language fallback), or null. */
export function groundingOfError(error: unknown): GroundingReport | null {
  return error instanceof LlmLanguageError ? error.grounding : null;
}

/** The instruction of the one retry after an answer in the wrong language. */
export function firmerLanguageRule(language: Language, detected: string): string {
  return (
    `Your previous reply was written in the language with code ${detected}, not in ${language.name}. ` +
    `Reply again with the same JSON object, every text value (titles, descriptions, recommendations, evidence, summary, advice) written in ${language.name} (language code ${language.code}). ` +
    "Keep finding ids, metric and column names, numbers and code identifiers exactly as given."
  );
}

/**
 * Asks the model and checks the language of its texts: on a mismatch asks once more with a firmer instruction;
 * a second mismatch throws LlmLanguageError (said in error_messages by the node, which keeps its templated text).
 */
export async function answerInLanguage<T>(
  ask: (messages: readonly ChatMessage[]) => Promise<T>,
  messages: readonly ChatMessage[],
  language: Language,
  textsOf: (answer: T) => string[],
): Promise<{ answer: T; tally: GroundingTally }> {
  // Imported at the first answer: franc's language profiles are a twentieth of the start-up, and deterministic
  // mode never checks a language.
  const { isCheckable, readLanguage } = await import("./language.js");
  if (!isCheckable(language)) return { answer: await ask(messages), tally: new GroundingTally({ expected: language.code, detected: null, outcome: "unchecked" }) };
  const first = await ask(messages);
  const read = readLanguage(textsOf(first), language);
  if (read.matches !== false) return { answer: first, tally: new GroundingTally({ expected: language.code, detected: read.detected, outcome: "ok" }) };
  const again = await ask([...messages, { role: "user", content: firmerLanguageRule(language, read.detected ?? "unknown") }]);
  const reread = readLanguage(textsOf(again), language);
  if (reread.matches !== false) return { answer: again, tally: new GroundingTally({ expected: language.code, detected: reread.detected, outcome: "retried" }) };
  const tally = new GroundingTally({ expected: language.code, detected: reread.detected, outcome: "fallback" });
  tally.count("language");
  throw new LlmLanguageError(
    `the model answered in ${reread.detected} instead of ${language.name} (${language.code}) twice; its text was discarded and the deterministic text kept (English: templates cover English only)`,
    tally.report(),
  );
}
