import autocannon from "autocannon";
import { quantile } from "./stats.js";

/** What one autocannon run against a POST endpoint measured. */
export interface Load {
  p50: number;
  p99: number;
  /** 2xx answers per second of the run. */
  rps: number;
  ok: number;
  /** Answers by status code, 503s (admission refusals) included. */
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
}

/** Drives `url` with `body` at `connections` for `seconds`: latency percentiles and throughput of its 2xx answers. */
export async function load(url: string, body: string, connections: number, seconds: number): Promise<Load> {
  // autocannon's histogram keeps whole milliseconds; the per-response time is exact, so percentiles come from it.
  // Only 2xx answers count: an instant 503 would flatter the percentiles (503s are counted apart).
  const latencies: number[] = [];
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    const options = { url, method: "POST" as const, headers: { "content-type": "application/json" }, body, connections, duration: seconds };
    const instance = autocannon(options, (err: unknown, result) => (err ? reject(err) : resolve(result)));
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
  if (latencies.length === 0) throw new Error(`${url} gave no 2xx answer at concurrency ${connections}`);
  const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s.count ?? 0]));
  return {
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    rps: latencies.length / seconds,
    ok: latencies.length,
    statuses,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}
