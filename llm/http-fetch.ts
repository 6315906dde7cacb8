import http from "node:http";
import https from "node:https";

/** Kept-alive connections to the model endpoint, shared by every model of the process. */
const agents = { "http:": new http.Agent({ keepAlive: true }), "https:": new https.Agent({ keepAlive: true }) };

/** What global fetch rejects with when the signal aborts (the OpenAI client tells a time-out from it by name). */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/**
 * The OpenAI client's fetch for the model endpoint: one request over node:http(s) with kept-alive connections,
 * its answer read whole into a `Response`. Global fetch (undici) costs ~0.3 ms more CPU and ~0.65 ms more wall
 * time per round trip with a 15 KB prompt (WHATWG Request and stream objects both ways; measured on this machine,
 * docs/decisions.md), four times on an analysis's critical path. Model calls never stream (llm/chat-model.ts),
 * so reading the answer whole loses nothing, and the client's time-out now covers the body too. Anything but a
 * string body (uploads, streams) goes to global fetch. Failures look like fetch's: an aborted signal rejects
 * with its reason (an AbortError), a connection failure with TypeError("fetch failed") and the cause.
 */
export const httpFetch: typeof fetch = (input, init) => {
  const body = init?.body;
  if (input instanceof Request || (body !== undefined && body !== null && typeof body !== "string")) return fetch(input, init);
  const url = new URL(input);
  const agent = agents[url.protocol as keyof typeof agents];
  if (!agent) return fetch(input, init);
  const signal = init?.signal ?? undefined;
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    if (typeof body === "string") headers["content-length"] = String(Buffer.byteLength(body));
    const request = (url.protocol === "https:" ? https : http).request(url, { method: init?.method ?? "GET", headers, agent });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      outcome();
    };
    const fail = (err: unknown) => finish(() => reject(signal?.aborted ? abortReason(signal) : new TypeError("fetch failed", { cause: err })));
    const onAbort = () => {
      fail(undefined);
      request.destroy();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    request.on("error", fail);
    request.once("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", fail);
      // A connection closed before the answer's end: the body is cut short.
      res.once("close", () => fail(new Error("the connection closed before the answer ended")));
      res.once("end", () =>
        finish(() => {
          const answerHeaders = new Headers();
          for (let i = 0; i < res.rawHeaders.length; i += 2) answerHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
          const status = res.statusCode ?? 0;
          // A Response may carry no body with these statuses.
          const bodyless = status === 204 || status === 205 || status === 304;
          resolve(new Response(bodyless ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage, headers: answerHeaders }));
        }),
      );
    });
    request.end(body);
  });
};
