import type { z } from "zod";
import { type Deadline, DeadlineExceeded } from "../../graph/deadline.js";
import type { ByteBudget } from "./budget.js";
import { type MlflowEndpoint, endpointUrl } from "./endpoint.js";
import { MlflowError } from "./errors.js";

export type Query = Record<string, string | number | readonly string[] | undefined>;
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface TransportOptions {
  endpoint: MlflowEndpoint;
  /** Per call: time to the response headers, then the longest silence while a body streams. */
  timeoutMs: number;
  /** The request's deadline: each call is a scope of it; its abort reason (client gone, time-out) is rethrown as is. */
  deadline: Deadline;
  /** Every byte read counts against the request's pull budget, JSON answers included. */
  budget: ByteBudget;
  fetch?: typeof fetch;
  /** Injected so retry tests do not wait; the default honours the signal. */
  sleep?: Sleep;
  /** Attempts per call, counting the first (connection errors, 429 and 5xx are retried). */
  attempts?: number;
  /** First back-off; each retry doubles it. */
  backoffMs?: number;
}

/** A response whose body may still be streaming; `touch` re-arms the silence timer, `release` disarms it. */
export interface OpenResponse {
  response: Response;
  touch(): void;
  release(): void;
  timedOut(): boolean;
}

const RETRY_STATUS = new Set([429, 500, 502, 503, 504]);
const MLFLOW_BUDGET = "SERVICE_MLFLOW_TIMEOUT_MS";

/** Talks HTTP to the configured tracking server: auth, bounded retries, time-outs and error mapping. */
export class MlflowTransport {
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: Sleep;
  private readonly attempts: number;
  private readonly backoffMs: number;

  constructor(private readonly options: TransportOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.sleep = options.sleep ?? abortableSleep;
    this.attempts = Math.max(1, options.attempts ?? 3);
    this.backoffMs = options.backoffMs ?? 300;
  }

  get endpoint(): MlflowEndpoint {
    return this.options.endpoint;
  }

  get budget(): ByteBudget {
    return this.options.budget;
  }

  /** GET (or POST with a JSON body) a REST path and validate the answer; `what` names the resource for 404s. */
  async json<S extends z.ZodType>(
    schema: S,
    what: string,
    path: string,
    init: { query?: Query; body?: unknown } = {},
  ): Promise<z.infer<S>> {
    const open = await this.open(path, what, init);
    let text: string;
    try {
      text = new TextDecoder().decode(await this.readBody(open, what));
    } finally {
      open.release();
    }
    let data: unknown;
    try {
      data = text.trim() === "" ? {} : JSON.parse(text);
    } catch {
      throw this.badResponse(`${what}: the answer is not JSON (${text.slice(0, 80)})`);
    }
    const parsed = schema.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw this.badResponse(`${what}: unexpected answer shape at ${issue?.path.join(".") || "(root)"}: ${issue?.message}`);
    }
    return parsed.data;
  }

  /** Plain-text GET (`/version`). */
  async text(path: string, what: string): Promise<string> {
    const open = await this.open(path, what, {});
    try {
      return new TextDecoder().decode(await this.readBody(open, what));
    } finally {
      open.release();
    }
  }

  /** Sends one call with retries and returns once the headers of a 2xx arrive. */
  async open(path: string, what: string, init: { query?: Query; body?: unknown }): Promise<OpenResponse> {
    const url = endpointUrl(this.endpoint, path, init.query);
    for (let attempt = 1; ; attempt++) {
      const call = this.arm();
      let response: Response;
      try {
        response = await this.fetchImpl(url, {
          method: init.body === undefined ? "GET" : "POST",
          headers: this.headers(init.body !== undefined),
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
          signal: call.signal,
        });
      } catch (err) {
        call.release();
        this.rethrowIfCallerAborted();
        const failure = call.timedOut() ? this.timeout(what) : this.unreachable(err);
        if (attempt < this.attempts && !call.timedOut()) {
          await this.backoff(attempt);
          continue;
        }
        throw failure;
      }
      if (response.ok) return { response, touch: call.touch, release: call.release, timedOut: call.timedOut };
      call.release();
      const detail = await errorDetail(response);
      if (RETRY_STATUS.has(response.status) && attempt < this.attempts) {
        await this.backoff(attempt);
        continue;
      }
      throw this.statusError(response.status, detail, what);
    }
  }

  /** Reads a whole body into memory under the document cap. */
  async readBody(open: OpenResponse, what: string): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    let received = 0;
    for await (const chunk of this.chunks(open, what)) {
      this.budget.take(chunk.byteLength, received, what, this.budget.documentCap);
      received += chunk.byteLength;
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }

  /** The body's chunks, with the silence timer re-armed on each and stream failures mapped to errors. */
  async *chunks(open: OpenResponse, what: string): AsyncGenerator<Uint8Array> {
    const body = open.response.body;
    if (!body) return;
    const reader = body.getReader();
    try {
      for (;;) {
        let step: ReadableStreamReadResult<Uint8Array>;
        try {
          step = await reader.read();
        } catch (err) {
          this.rethrowIfCallerAborted();
          if (open.timedOut()) throw this.timeout(what);
          throw new MlflowError("MLFLOW_UNAVAILABLE", `${what}: the transfer from the tracking server ${this.endpoint.display} broke off: ${causeText(err)}`, { cause: err });
        }
        if (step.done) return;
        open.touch();
        yield step.value;
      }
    } finally {
      reader.releaseLock();
      await body.cancel().catch(() => undefined);
    }
  }

  private headers(json: boolean): Record<string, string> {
    const h: Record<string, string> = { accept: "application/json, */*" };
    if (json) h["content-type"] = "application/json";
    if (this.endpoint.authorization) h.authorization = this.endpoint.authorization;
    return h;
  }

  /** One call's scope of the request's deadline: the time-out to the headers, re-armed by each chunk of the body. */
  private arm() {
    const scope = this.options.deadline.scope(this.options.timeoutMs, MLFLOW_BUDGET);
    return {
      signal: scope.signal,
      touch: scope.restart,
      release: scope.dispose,
      timedOut: () => scope.signal.reason instanceof DeadlineExceeded && scope.signal.reason.budget === MLFLOW_BUDGET,
    };
  }

  private rethrowIfCallerAborted(): void {
    const { signal } = this.options.deadline;
    if (signal.aborted) throw signal.reason;
  }

  private async backoff(attempt: number): Promise<void> {
    await this.sleep(this.backoffMs * 2 ** (attempt - 1), this.options.deadline.signal);
    this.rethrowIfCallerAborted();
  }

  private unreachable(err: unknown): MlflowError {
    return new MlflowError(
      "MLFLOW_UNAVAILABLE",
      `the tracking server ${this.endpoint.display} is unreachable (${causeText(err)}) after ${this.attempts} attempt(s)`,
      { cause: err },
    );
  }

  private timeout(what: string): MlflowError {
    return new MlflowError(
      "MLFLOW_UNAVAILABLE",
      `${what}: the tracking server ${this.endpoint.display} did not answer within ${this.options.timeoutMs} ms (SERVICE_MLFLOW_TIMEOUT_MS)`,
    );
  }

  private badResponse(message: string): MlflowError {
    return new MlflowError("MLFLOW_BAD_RESPONSE", `tracking server ${this.endpoint.display}: ${message}`);
  }

  private statusError(status: number, detail: ErrorDetail, what: string): MlflowError {
    const server = detail.message ? `: ${detail.message}` : "";
    if (status === 404 || detail.code === "RESOURCE_DOES_NOT_EXIST") {
      return new MlflowError("MLFLOW_NOT_FOUND", `${what} was not found on the tracking server ${this.endpoint.display}${server}`);
    }
    if (status === 401 || status === 403) {
      return this.badResponse(
        `${what}: access refused (${status}${server}); set SERVICE_MLFLOW_TOKEN or SERVICE_MLFLOW_USERNAME/SERVICE_MLFLOW_PASSWORD`,
      );
    }
    if (status >= 500) {
      return new MlflowError("MLFLOW_UNAVAILABLE", `${what}: the tracking server ${this.endpoint.display} failed with ${status}${server} after ${this.attempts} attempt(s)`);
    }
    return this.badResponse(`${what}: ${status} ${detail.code ?? ""}${server}`.trim());
  }
}

interface ErrorDetail {
  code?: string;
  message?: string;
}

/** MLflow's `{error_code, message}` body when there is one; a short text otherwise. */
async function errorDetail(response: Response): Promise<ErrorDetail> {
  const text = (await response.text().catch(() => "")).slice(0, 2000);
  try {
    const body = JSON.parse(text) as { error_code?: unknown; message?: unknown };
    return {
      code: typeof body.error_code === "string" ? body.error_code : undefined,
      message: typeof body.message === "string" ? body.message.slice(0, 300) : undefined,
    };
  } catch {
    return { message: text.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim().slice(0, 200) || undefined };
  }
}

/** "fetch failed" hides the reason in `cause` (ECONNREFUSED, ENOTFOUND…). */
function causeText(err: unknown): string {
  const e = err as { message?: string; code?: string; cause?: { code?: string; message?: string } } | null;
  return e?.cause?.code ?? e?.code ?? e?.cause?.message ?? e?.message ?? String(err);
}

/** setTimeout that stops early when the signal aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
