import { adviceTexts, reviewTexts, summaryTexts } from "../../llm/grounding/answer-texts.js";
import { groundAdvice, groundReview, groundSummary } from "../../llm/grounding/answers.js";
import type { GroundingEvidence } from "../../llm/grounding/evidence.js";
import type { GroundingTally } from "../../llm/grounding/report.js";
import { type AdviceOutput, type AgentReviewOutput, SCHEMA_NAMES } from "../../llm/schemas.js";
import type { ChatRequestBody } from "./fake-openai.js";

/**
 * One recorded model call, for measuring the grounding pass outside an analysis (the grounding bench, the verdict
 * tool): its schema, the values its prompt showed (the port has them from the prompt it made; here they are read
 * back from the request) and the answer as the structured output parsed it.
 */
export interface RecordedCall {
  schema: string | undefined;
  shown: unknown;
  answer: unknown;
}

/** The call a fake model answered with `content`. */
export function recordedCall(body: ChatRequestBody, content: string): RecordedCall {
  const user = (body.messages as Array<{ role: string; content: string }>).find((m) => m.role === "user")!.content;
  return { schema: body.response_format?.json_schema?.name, shown: JSON.parse(user) as unknown, answer: JSON.parse(content) as unknown };
}

/** Every string of a model answer, as the verdict tool reads its language (the port reads `languageTextsOf`'s). */
export const textsOf = (value: unknown): string[] =>
  typeof value === "string" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(textsOf) : [];

/** What the port does with an answer of each schema (by the name it sends): the texts it reads the language of, and its claims checked. */
const BY_SCHEMA: Record<string, { texts(answer: unknown): string[]; ground(answer: unknown, evidence: GroundingEvidence, tally: GroundingTally): unknown }> = {
  [SCHEMA_NAMES.review]: { texts: (a) => reviewTexts(a as AgentReviewOutput), ground: (a, e, t) => groundReview(a as AgentReviewOutput, e, t) },
  [SCHEMA_NAMES.summary]: { texts: (a) => summaryTexts(a as { summary: string }), ground: (a, e, t) => groundSummary((a as { summary: string }).summary, e, t) },
  [SCHEMA_NAMES.advice]: { texts: (a) => adviceTexts(a as AdviceOutput), ground: (a, e, t) => groundAdvice(a as AdviceOutput, 100, e, t) },
};

function bySchema(schema: string | undefined) {
  const handling = schema !== undefined && Object.hasOwn(BY_SCHEMA, schema) ? BY_SCHEMA[schema] : undefined;
  if (!handling) throw new Error(`unknown schema ${schema}`);
  return handling;
}

/** The texts of a recorded answer the port reads the language of, by its schema (not every string, `textsOf`). */
export function languageTextsOf({ schema, answer }: RecordedCall): string[] {
  return bySchema(schema).texts(answer);
}

/** The claims of a recorded answer checked against its evidence as the port checks its schema's: the grounded answer. */
export function groundRecorded({ schema, answer }: RecordedCall, evidence: GroundingEvidence, tally: GroundingTally): unknown {
  return bySchema(schema).ground(answer, evidence, tally);
}
