import type { RedisLink } from "../redis/link.js";
import type { CacheStore, StoreStats } from "./store.js";

/**
 * The shared store while Redis answers, this process's own store while it does not: a Redis outage never fails
 * a lookup, it only stops sharing (the link warns and /readyz says degraded). Entries written to memory during
 * an outage stay there; once Redis is back, reads and writes go to Redis again.
 */
export class FallbackCacheStore<V> implements CacheStore<V> {
  constructor(
    private readonly shared: CacheStore<V>,
    private readonly local: CacheStore<V>,
    private readonly link: Pick<RedisLink, "available" | "failed">,
  ) {}

  private async attempt<T>(op: (store: CacheStore<V>) => Promise<T>): Promise<T> {
    if (this.link.available) {
      try {
        return await op(this.shared);
      } catch (err) {
        this.link.failed(err);
      }
    }
    return op(this.local);
  }

  get(key: string): Promise<V | undefined> {
    return this.attempt((s) => s.get(key));
  }

  set(key: string, value: V): Promise<void> {
    return this.attempt((s) => s.set(key, value));
  }

  stats(): StoreStats {
    return this.link.available ? this.shared.stats() : this.local.stats();
  }
}
