import { groundAdvice, groundReview, groundSummary } from "../../llm/grounding/answers.js";
import type { GroundingEvidence } from "../../llm/grounding/evidence.js";
import type { GroundingTally } from "../../llm/grounding/report.js";
import type { AdviceOutput, AgentReviewOutput } from "../../llm/schemas.js";
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

/** Every string of a model answer: what the language check reads. */
export const textsOf = (value: unknown): string[] =>
  typeof value === "string" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(textsOf) : [];

/** The claims of a recorded answer checked against its evidence as the port checks its schema's: the grounded answer. */
export function groundRecorded({ schema, answer }: RecordedCall, evidence: GroundingEvidence, tally: GroundingTally): unknown {
  switch (schema) {
    case "agent_review":
      return groundReview(answer as AgentReviewOutput, evidence, tally);
    case "cross_artifact_summary":
      return groundSummary((answer as { summary: string }).summary, evidence, tally);
    case "optimization_advice":
      return groundAdvice(answer as AdviceOutput, 100, evidence, tally);
    default:
      throw new Error(`unknown schema ${schema}`);
  }
}
