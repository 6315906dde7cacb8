/**
 * Why a deadline fired: named "TimeoutError" like the DOMException of AbortSignal.timeout, so callers test one
 * name, and carrying which budget ran out (the request's, an agent's, a model call's …) and its length.
 */
export class DeadlineExceeded extends Error {
  override name = "TimeoutError";
  constructor(
    readonly budget: string,
    readonly ms: number,
  ) {
    super(`${budget} timed out after ${ms} ms`);
  }
}

/** A part of the request with its own, shorter budget: its signal aborts at its limit or with the request. */
export interface DeadlineScope {
  readonly signal: AbortSignal;
  /** Milliseconds this scope has left (0 once passed). */
  remainingMs(): number;
  /** Starts the scope's limit again from now, still clipped to the request's (a silence timer, re-armed per chunk). */
  restart(): void;
  /** Stops its timer and detaches it from the request; the step is over. Safe to call twice. */
  dispose(): void;
}

/**
 * The one clock of a request, created when it arrives. Every time-out of the request (its own, each agent's,
 * each language-model and tracking-server step, the body read) is a timer this object holds in a strong set
 * until it fires or the request ends, and every abort goes through AbortControllers it also holds. No
 * AbortSignal.timeout is used: inside AbortSignal.any (Node 20) its signal is held weakly, a garbage collection
 * can take it with its timer, and the time-out silently never fires.
 */
export class Deadline {
  private endsAt = Number.POSITIVE_INFINITY;
  private readonly controller = new AbortController();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly scopes = new Set<() => void>();
  private disposed = false;

  /**
   * Starts the request's own limit (the body read before it has its own timer): at `totalMs` from now the
   * signal aborts with a DeadlineExceeded naming `budget` (e.g. "the analysis (SERVICE_REQUEST_TIMEOUT_MS)").
   */
  begin(totalMs: number, budget: string): this {
    if (this.endsAt !== Number.POSITIVE_INFINITY) throw new Error("the request's deadline has already begun");
    this.endsAt = performance.now() + totalMs;
    this.hold(totalMs, () => this.abort(new DeadlineExceeded(budget, totalMs)));
    return this;
  }

  /** Aborts when the request's time is up or the request is cancelled (client gone). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Milliseconds the request has left: Infinity before `begin`, 0 once passed. */
  remainingMs(): number {
    return Math.max(0, Math.floor(this.endsAt - performance.now()));
  }

  /** Ends the request now (the client went away); every scope aborts with it. */
  abort(reason: unknown): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  /**
   * A scope of at most `ms` for one step; its signal aborts with a DeadlineExceeded naming `budget` when its own
   * limit passes, or with the request's reason when the request ends first (or at the same time).
   */
  scope(ms: number, budget: string): DeadlineScope {
    const controller = new AbortController();
    const onRequestEnd = () => controller.abort(this.signal.reason);
    let timer: NodeJS.Timeout | null = null;
    let endsAt = 0;
    const arm = () => {
      if (timer) this.release(timer);
      timer = null;
      const left = this.remainingMs();
      endsAt = performance.now() + Math.min(ms, left);
      // A scope that would end with the request is ended by the request, so its reason is the request's.
      if (ms < left) timer = this.hold(ms, () => controller.abort(new DeadlineExceeded(budget, ms)));
    };
    const dispose = () => {
      if (timer) this.release(timer);
      timer = null;
      this.signal.removeEventListener("abort", onRequestEnd);
      this.scopes.delete(dispose);
    };
    if (this.signal.aborted) onRequestEnd();
    else {
      this.signal.addEventListener("abort", onRequestEnd, { once: true });
      this.scopes.add(dispose);
      arm();
    }
    return {
      signal: controller.signal,
      remainingMs: () => Math.max(0, Math.floor(endsAt - performance.now())),
      restart: () => {
        if (!controller.signal.aborted && this.scopes.has(dispose)) arm();
      },
      dispose,
    };
  }

  /**
   * Runs `step` within a scope of `ms` named `budget`, and settles no later than the scope: at its limit this
   * rejects with the scope's DeadlineExceeded even if the step ignores the signal it is given.
   */
  async within<T>(ms: number, budget: string, step: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const scope = this.scope(ms, budget);
    try {
      return await untilAborted(step(scope.signal), scope.signal);
    } finally {
      scope.dispose();
    }
  }

  /**
   * A timer owned by this deadline (e.g. the body read's), cleared with it; returns a function that cancels it.
   * For limits that answer on their own rather than through an abort signal.
   */
  timer(ms: number, onTimeout: () => void): () => void {
    const timer = this.hold(ms, onTimeout);
    return () => timer && this.release(timer);
  }

  /** Clears every timer and detaches every scope: the request is over. Safe to call twice. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const detach of [...this.scopes]) detach();
  }

  private hold(ms: number, fire: () => void): NodeJS.Timeout | null {
    if (this.disposed) return null;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fire();
    }, ms);
    this.timers.add(timer);
    return timer;
  }

  private release(timer: NodeJS.Timeout): void {
    clearTimeout(timer);
    this.timers.delete(timer);
  }
}

/**
 * Waits for `work`, but no longer than `signal` allows: when it aborts, rejects with its reason at once, so a
 * step that ignores the signal (a model client mid-retry, a parser) cannot hold its caller past its budget.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // Nobody waits for the abandoned work any more: its own failure, superseded by the abort, must not go unhandled.
    work.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}
