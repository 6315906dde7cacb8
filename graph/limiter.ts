/** A counting semaphore: at most `n` tasks run at once; waiting is abortable. */
export interface Limiter {
  run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  readonly active: number;
  readonly waiting: number;
}

export function createLimiter(n: number): Limiter {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`limiter size must be a positive integer, got ${n}`);
  let active = 0;
  const queue: Array<() => void> = [];
  const acquire = (signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      if (active < n) {
        active++;
        return resolve();
      }
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        active++;
        resolve();
      };
      const onAbort = () => {
        const i = queue.indexOf(grant);
        if (i >= 0) queue.splice(i, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      queue.push(grant);
    });
  return {
    async run(fn, signal) {
      await acquire(signal);
      try {
        return await fn();
      } finally {
        active--;
        queue.shift()?.();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}
