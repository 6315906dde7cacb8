import http from "node:http";
import type { AddressInfo } from "node:net";

/** The parts of an OpenAI chat-completions request body the fake reads. */
/**
 * The service settings that point it at a fake model at `baseURL` (spec §2.3 needs temperature and max_tokens set
 * once a model name is); `extra` adds to or overrides them (a key, a larger max_tokens, time-outs).
 */
export function fakeModelEnv(baseURL: string, extra: Record<string, string> = {}): Record<string, string> {
  return { SERVICE_LLM_MODEL_NAME: "fake-model", SERVICE_LLM_BASE_URL: baseURL, SERVICE_LLM_TEMPERATURE: "0", SERVICE_LLM_MAX_TOKENS: "500", ...extra };
}

export interface ChatRequestBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: Record<string, unknown> } };
  tools?: Array<{ type: string; function: { name: string; parameters: Record<string, unknown> } }>;
  tool_choice?: unknown;
  temperature?: number;
  max_tokens?: number;
  stream?: boolean;
  [key: string]: unknown;
}

/** How the fake answers one request. */
export interface FakeReply {
  /** Text for `message.content` (JSON text for structured output; anything for malformed output). */
  content?: string;
  /** Answer with this function call (its arguments as JSON text) instead of content. */
  toolCall?: { name: string; arguments: string };
  /** Answer with this HTTP status and an OpenAI-style error body instead. */
  status?: number;
  /** Wait this long before answering (an aborted client stops the wait). */
  delayMs?: number;
  /** With `status`: the error message quotes the request's Authorization header, as verbose gateways do. */
  echoAuthorization?: boolean;
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
        .end(JSON.stringify({ error: { message: `fake error ${reply.status}${reply.echoAuthorization ? ` (request had Authorization: ${req.headers.authorization})` : ""}`, type: "server_error", code: null } }));
      return;
    }
    const content = reply.content ?? "";
    const message = reply.toolCall
      ? { role: "assistant", content: null, tool_calls: [{ id: `call_${index}`, type: "function", function: reply.toolCall }] }
      : { role: "assistant", content };
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id: `chatcmpl-${index}`,
        object: "chat.completion",
        created: 1_700_000_000,
        model: body.model,
        usage: fakeUsage(body, reply.toolCall?.arguments ?? content),
        choices: [{ index: 0, finish_reason: reply.toolCall ? "tool_calls" : "stop", message }],
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

/**
 * The schema a request asks for, however it asks: `response_format: json_schema`, a forced function call, or the
 * instruction of JSON mode and the prompt-only mode ("…matches the JSON schema "agent_review": {…}").
 */
export function schemaAskedFor(body: ChatRequestBody): string | undefined {
  const named = body.response_format?.json_schema?.name ?? body.tools?.[0]?.function.name;
  if (named) return named;
  const system = body.messages.find((m) => m.role === "system")?.content ?? "";
  return /matches the JSON schema "([a-z_]+)"/.exec(system)?.[1];
}

/** How a structured request asked: the mode of llm/structured-mode.ts the server saw. */
export function modeOf(body: ChatRequestBody): "json_schema" | "tools" | "json_mode" | "prompt" {
  if (body.response_format?.type === "json_schema") return "json_schema";
  if (body.tools?.length) return "tools";
  return body.response_format?.type === "json_object" ? "json_mode" : "prompt";
}

/**
 * A server that takes only some modes (answering 400 for the others, as servers without json_schema do) and answers
 * the well-behaved model's JSON in the way the mode asks: a function call in `tools` mode, content otherwise.
 */
export function quirkyServer(accepts: ReadonlyArray<ReturnType<typeof modeOf>>, answer: (body: ChatRequestBody) => FakeReply = modelAnswer): FakeScript {
  return (body) => {
    const mode = modeOf(body);
    if (!accepts.includes(mode)) return { status: 400 };
    const reply = answer(body);
    return mode === "tools" && reply.content !== undefined ? { toolCall: { name: body.tools![0]!.function.name, arguments: reply.content } } : reply;
  };
}

/** The well-behaved model's JSON, fenced in a Markdown block with prose around it, as many local models write it. */
export function fencedAnswer(body: ChatRequestBody): FakeReply {
  const reply = modelAnswer(body);
  return reply.content === undefined ? reply : { content: `Sure! Here is the JSON you asked for:\n\n\`\`\`json\n${reply.content}\n\`\`\`\n\nLet me know if you need anything else.` };
}

/** A second attempt after an unusable reply carries the problem as a third message. */
export function isRetry(body: ChatRequestBody): boolean {
  return body.messages.length > 2;
}

const ids = (items: unknown): string[] =>
  Array.isArray(items) ? items.flatMap((f) => (f && typeof f === "object" && "id" in f ? [String(f.id)] : [])) : [];

/** What the well-behaved model says, in each language the tests ask for (English for the others). */
interface Phrases {
  summary: string;
  reviewed: string;
  act: string;
  because: string;
  secondLook: string;
  uncovered: string;
  fromDigest: string;
  cross: string;
  advice: string;
  why: string;
}

const PHRASES: Record<string, Phrases> = {
  en: {
    summary: "what the evidence says about this artifact, in a few words.",
    reviewed: "the evidence of the detector stands and explains the problem.",
    act: "act on what the detector found before the next run.",
    because: "because the evidence points there.",
    secondLook: "a second look at the artifact",
    uncovered: "something the detectors did not cover is worth checking.",
    fromDigest: "seen in the digest of the artifact.",
    cross: "the analyzers agree on the most severe problems, which should be fixed first.",
    advice: "follow the steps in the order given, starting with the data.",
    why: "this addresses the problem behind the findings.",
  },
  fr: {
    summary: "ce que disent les preuves sur cet artefact, en quelques mots.",
    reviewed: "les preuves du détecteur tiennent et expliquent le problème.",
    act: "agir sur ce que le détecteur a trouvé avant la prochaine exécution.",
    because: "parce que les preuves vont dans ce sens.",
    secondLook: "un second regard sur l'artefact",
    uncovered: "un point que les détecteurs ne couvrent pas mérite une vérification.",
    fromDigest: "vu dans le résumé de l'artefact.",
    cross: "les analyseurs sont d'accord sur les problèmes les plus graves, qu'il faut corriger en premier.",
    advice: "suivez les étapes dans l'ordre donné, en commençant par les données.",
    why: "cela traite le problème qui se trouve derrière les constats.",
  },
  de: {
    summary: "was die Belege über dieses Artefakt sagen, in wenigen Worten.",
    reviewed: "die Belege des Detektors bleiben bestehen und erklären das Problem.",
    act: "handeln Sie vor dem nächsten Lauf auf das, was der Detektor gefunden hat.",
    because: "weil die Belege dorthin zeigen.",
    secondLook: "ein zweiter Blick auf das Artefakt",
    uncovered: "etwas, das die Detektoren nicht abdecken, sollte geprüft werden.",
    fromDigest: "in der Zusammenfassung des Artefakts gesehen.",
    cross: "die Analysatoren sind sich über die schwersten Probleme einig, die zuerst behoben werden sollten.",
    advice: "folgen Sie den Schritten in der angegebenen Reihenfolge und beginnen Sie mit den Daten.",
    why: "das behebt das Problem hinter den Befunden.",
  },
  es: {
    summary: "lo que dicen las pruebas sobre este artefacto, en pocas palabras.",
    reviewed: "las pruebas del detector se mantienen y explican el problema.",
    act: "actuar sobre lo que encontró el detector antes de la próxima ejecución.",
    because: "porque las pruebas apuntan en esa dirección.",
    secondLook: "una segunda mirada al artefacto",
    uncovered: "algo que los detectores no cubren merece una comprobación.",
    fromDigest: "visto en el resumen del artefacto.",
    cross: "los analizadores coinciden en los problemas más graves, que deben corregirse primero.",
    advice: "siga los pasos en el orden indicado, empezando por los datos.",
    why: "esto resuelve el problema que hay detrás de los hallazgos.",
  },
  it: {
    summary: "ciò che dicono le prove su questo artefatto, in poche parole.",
    reviewed: "le prove del rilevatore reggono e spiegano il problema.",
    act: "intervenire su ciò che il rilevatore ha trovato prima della prossima esecuzione.",
    because: "perché le prove vanno in quella direzione.",
    secondLook: "un secondo sguardo all'artefatto",
    uncovered: "qualcosa che i rilevatori non coprono merita una verifica.",
    fromDigest: "visto nel riepilogo dell'artefatto.",
    cross: "gli analizzatori concordano sui problemi più gravi, che vanno corretti per primi.",
    advice: "seguite i passi nell'ordine indicato, cominciando dai dati.",
    why: "questo risolve il problema che sta dietro ai risultati.",
  },
  ko: {
    summary: "이 아티팩트에 대해 증거가 말하는 내용을 간단히 정리합니다.",
    reviewed: "탐지기의 증거는 유효하며 문제를 설명합니다.",
    act: "다음 실행 전에 탐지기가 찾은 문제를 해결하십시오.",
    because: "증거가 그 방향을 가리키기 때문입니다.",
    secondLook: "아티팩트를 다시 한 번 살펴보기",
    uncovered: "탐지기가 다루지 않은 부분도 확인할 가치가 있습니다.",
    fromDigest: "아티팩트 요약에서 확인되었습니다.",
    cross: "분석기들은 가장 심각한 문제에 동의하며 이를 먼저 고쳐야 합니다.",
    advice: "데이터부터 시작하여 주어진 순서대로 단계를 따르십시오.",
    why: "이것은 발견 사항 뒤에 있는 문제를 해결합니다.",
  },
  ja: {
    summary: "この成果物について証拠が示していることを簡潔に述べます。",
    reviewed: "検出器の証拠は妥当であり、問題を説明しています。",
    act: "次の実行の前に、検出器が見つけた問題に対処してください。",
    because: "証拠がその方向を示しているためです。",
    secondLook: "成果物をもう一度確認する",
    uncovered: "検出器が扱っていない点も確認する価値があります。",
    fromDigest: "成果物の要約から読み取れます。",
    cross: "各分析器は最も深刻な問題について一致しており、それを最初に修正すべきです。",
    advice: "データから始めて、示された順序で手順に従ってください。",
    why: "これにより所見の背後にある問題が解決されます。",
  },
};

/** The phrases of the language the system prompt asked for. */
export function phrasesFor(body: ChatRequestBody): Phrases {
  const code = requestLanguage(body)?.code.split("-")[0] ?? "en";
  return PHRASES[code] ?? PHRASES.en!;
}

/**
 * A well-behaved model: a schema-valid answer for each of our schemas, every text written in the language the
 * system prompt asked for and tagged with its code (`[fr] …`), so tests can see the language pass through. It
 * states no number it was not given.
 */
export function modelAnswer(body: ChatRequestBody): FakeReply {
  const schema = schemaAskedFor(body);
  const input = requestInput(body);
  const agent = requestAgent(body);
  const tag = `[${requestLanguage(body)?.code ?? "??"}]`;
  const say = phrasesFor(body);
  switch (schema) {
    case "agent_review":
      return {
        content: JSON.stringify({
          summary: `${tag} ${agent}: ${say.summary}`,
          findings: ids(input.findings).map((id) => ({
            id,
            title: `${tag} ${id}`,
            description: `${tag} ${id}: ${say.reviewed}`,
            recommendation_action: `${tag} ${id}: ${say.act}`,
            recommendation_rationale: `${tag} ${id}: ${say.because}`,
            confidence: null,
            confidence_note: null,
          })),
          new_findings: [
            {
              name: "second look",
              title: `${tag} ${agent}: ${say.secondLook}`,
              description: `${tag} ${say.uncovered}`,
              evidence: `${tag} ${say.fromDigest}`,
              severity: "low",
              confidence: 0.9,
              recommendation: null,
            },
          ],
        }),
      };
    case "cross_artifact_summary":
      return { content: JSON.stringify({ summary: `${tag} cross-artifact summary: ${say.cross}` }) };
    case "optimization_advice": {
      const recs = Array.isArray(input.recommendations) ? input.recommendations : [];
      return {
        content: JSON.stringify({
          advice: `${tag} advice: ${say.advice}`,
          recommendations: recs.flatMap((r) =>
            r && typeof r === "object" && "priority" in r
              ? [{ priority: r.priority, action: `${tag} step ${String(r.priority)}: ${say.act}`, rationale: `${tag} ${say.why}` }]
              : [],
          ),
        }),
      };
    }
    default:
      return { status: 400 };
  }
}
