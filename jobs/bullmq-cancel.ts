import type { Redis } from "ioredis";

/** How often a running job (or one run of a comparison) looks for a cancellation asked on another replica. */
const CANCEL_POLL_MS = 500;

/**
 * Cancellations of jobs in Redis: a key any replica writes (DELETE), read by the worker that takes the job or
 * any of its runs, wherever it runs. A job's runs look up their parent's key, so one key stops them all.
 */
export class CancelFlags {
  constructor(
    private readonly client: Redis,
    private readonly prefix: string,
  ) {}

  private key(id: string): string {
    return `${this.prefix}:cancelled:${id}`;
  }

  async isSet(id: string): Promise<boolean> {
    return (await this.client.exists(this.key(id)).catch(() => 0)) === 1;
  }

  /** Marks a job cancelled for `ttlMs` (the retention: its view says cancelled until it expires). */
  async set(id: string, ttlMs: number): Promise<void> {
    await this.client.set(this.key(id), "1", "PX", ttlMs);
  }

  /** Aborts `controller` once job `id` is cancelled; the returned function stops watching. */
  watch(id: string, controller: AbortController): () => void {
    const poll = setInterval(() => void this.isSet(id).then((yes) => yes && controller.abort(new Error("the job was cancelled"))), CANCEL_POLL_MS);
    return () => clearInterval(poll);
  }
}
