import http from "node:http";
import type { AddressInfo } from "node:net";

/** The parts of an OpenAI chat-completions request body the fake reads. */
export interface ChatRequestBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: Record<string, unknown> } };
  temperature?: number;
  max_tokens?: number;
  stream?: boolean;
  [key: string]: unknown;
}

/** How the fake answers one request. */
export interface FakeReply {
  /** Text for `message.content` (JSON text for structured output; anything for malformed output). */
  content?: string;
  /** Answer with this HTTP status and an OpenAI-style error body instead. */
  status?: number;
  /** Wait this long before answering (an aborted client stops the wait). */
  delayMs?: number;
}

export interface RecordedRequest {
  method: string;
  url: string;
  authorization: string | null;
  body: ChatRequestBody;
}

/** Chooses the reply from the request body; `index` counts requests from 0. */
export type FakeScript = (body: ChatRequestBody, index: number) => FakeReply;

export interface FakeOpenAI {
  /** Base URL to configure (SERVICE_LLM_BASE_URL), ending in /v1. */
  baseURL: string;
  /** Every request received, in arrival order. */
  requests: RecordedRequest[];
  /** Delayed requests whose client closed the connection before the answer (an aborted model call). */
  readonly abandoned: number;
  close(): Promise<void>;
}

/** Token counts the fake reports: about one token per four characters, so usage depends on the prompt. */
export function fakeUsage(body: ChatRequestBody, content: string) {
  const prompt_tokens = Math.ceil(body.messages.reduce((n, m) => n + m.content.length, 0) / 4);
  const completion_tokens = Math.ceil(content.length / 4);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

/** Waits `ms`, or less when the client closes the connection first; resolves whether it did. */
function wait(ms: number, req: http.IncomingMessage): Promise<boolean> {
  return new Promise((resolve) => {
    // The socket outlives the request on kept-alive connections: remove the listener when the wait ends.
    const onClose = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      req.socket.off("close", onClose);
      resolve(false);
    }, ms);
    req.socket.once("close", onClose);
  });
}

/**
 * An OpenAI-compatible server of ours on 127.0.0.1: answers POST /v1/chat/completions with what `script` says
 * (JSON, delays, HTTP errors, malformed text) and records every request.
 */
export async function startFakeOpenAI(script: FakeScript): Promise<FakeOpenAI> {
  const requests: RecordedRequest[] = [];
  let abandoned = 0;
  const server = http.createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
      return;
    }
    const body = JSON.parse(raw) as ChatRequestBody;
    const index = requests.length;
    requests.push({ method: req.method, url: req.url, authorization: req.headers.authorization ?? null, body });
    const reply = script(body, index);
    if (reply.delayMs && (await wait(reply.delayMs, req))) abandoned++;
    if (res.destroyed) return;
    if (reply.status) {
      res
        .writeHead(reply.status, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: `fake error ${reply.status}`, type: "server_error", code: null } }));
      return;
    }
    const content = reply.content ?? "";
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id: `chatcmpl-${index}`,
        object: "chat.completion",
        created: 1_700_000_000,
        model: body.model,
        usage: fakeUsage(body, content),
        choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content } }],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    get abandoned() {
      return abandoned;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The user message's JSON input (every prompt of ours sends one). */
export function requestInput(body: ChatRequestBody): Record<string, unknown> {
  const user = body.messages.find((m) => m.role === "user");
  return user ? (JSON.parse(user.content) as Record<string, unknown>) : {};
}

/** The agent a request is for, from its input. */
export function requestAgent(body: ChatRequestBody): string {
  return String(requestInput(body).agent ?? "unknown");
}

/** The language the system prompt asks for, read the way a model would: from the instruction text. */
export function requestLanguage(body: ChatRequestBody): { name: string; code: string } | null {
  const system = body.messages.find((m) => m.role === "system")?.content ?? "";
  const match = /Write every text value in (.+?) \(language code ([^)]+)\)/.exec(system);
  return match ? { name: match[1]!, code: match[2]! } : null;
}

/** A second attempt after an unusable reply carries the problem as a third message. */
export function isRetry(body: ChatRequestBody): boolean {
  return body.messages.length > 2;
}

const ids = (items: unknown): string[] =>
  Array.isArray(items) ? items.flatMap((f) => (f && typeof f === "object" && "id" in f ? [String(f.id)] : [])) : [];

/**
 * A well-behaved model: a schema-valid answer for each of our schemas, every text tagged with the language code
 * the system prompt asked for (`[fr] …`), so tests can see the language pass through.
 */
export function modelAnswer(body: ChatRequestBody): FakeReply {
  const schema = body.response_format?.json_schema?.name;
  const input = requestInput(body);
  const agent = requestAgent(body);
  const tag = `[${requestLanguage(body)?.code ?? "??"}]`;
  switch (schema) {
    case "agent_review":
      return {
        content: JSON.stringify({
          summary: `${tag} ${agent}: what the evidence says.`,
          findings: ids(input.findings).map((id) => ({
            id,
            title: `${tag} ${id}`,
            description: `${tag} reviewed ${id}`,
            recommendation_action: `${tag} act on ${id}`,
            recommendation_rationale: `${tag} because of ${id}`,
            confidence: null,
            confidence_note: null,
          })),
          new_findings: [
            {
              name: "second look",
              title: `${tag} ${agent}: a second look`,
              description: `${tag} something the detectors did not cover`,
              evidence: `${tag} from the digest`,
              severity: "low",
              confidence: 0.9,
              recommendation: null,
            },
          ],
        }),
      };
    case "cross_artifact_summary":
      return { content: JSON.stringify({ summary: `${tag} cross-artifact summary over ${ids(input.findings).length} findings.` }) };
    case "optimization_advice": {
      const recs = Array.isArray(input.recommendations) ? input.recommendations : [];
      return {
        content: JSON.stringify({
          advice: `${tag} advice in ${recs.length} steps.`,
          recommendations: recs.flatMap((r) =>
            r && typeof r === "object" && "priority" in r
              ? [{ priority: r.priority, action: `${tag} step ${String(r.priority)}`, rationale: `${tag} why ${String(r.priority)}` }]
              : [],
          ),
        }),
      };
    }
    default:
      return { status: 400 };
  }
}
