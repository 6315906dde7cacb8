import { timedPost } from "../lib/http.js";
import { type Load, load } from "../lib/load.js";
import type { BenchProfile } from "../lib/options.js";
import { type BenchResult, type BenchRow, ratioOf } from "../lib/result.js";
import { readSampleRequest } from "../lib/sample.js";
import { buildOnce, freePort, withService } from "../lib/service.js";

const row = (metric: string, unit: string, value: number, baseline: number): BenchRow => ({ metric, value, unit, baseline, ratio: ratioOf(value, baseline) });


/** http_overhead: the sample analysis over real HTTP at concurrency 1 and 10, next to an echo handler. */
export async function benchHttpOverhead(profile: BenchProfile): Promise<BenchResult> {
  const body = readSampleRequest();
  const echoPort = await freePort();
  buildOnce();
  const runs = await withService(
    // One address plays the ten clients of concurrency 10: the per-client cap (429) is lifted above them.
    { name: "http-overhead-service", entry: "bench/hosts/service-with-echo.mjs", launcher: "node", args: [String(echoPort)], env: { SERVICE_MAX_CONCURRENT_PER_CLIENT: "100" } },
    async (service) => {
      const analyse = `${service.url}/v1/analyse`;
      const echo = `http://127.0.0.1:${echoPort}/echo`;
      const first = await timedPost(analyse, body);
      if (first.status !== 200) throw new Error(`the sample analysis answered ${first.status}: ${first.text.slice(0, 300)}`);
      // Warm both paths (JIT, lazy imports) before anything is measured.
      await load(analyse, body, 1, 1);
      await load(echo, body, 1, 1);
      const out: Record<string, Load> = {};
      const cpuPerAnswer: Record<string, number | null> = {};
      // The process's CPU time over a run ÷ its 2xx answers: steadier than latency when other work shares the cores.
      const measured = async (key: string, url: string, c: number) => {
        const before = service.cpuMs();
        out[key] = await load(url, body, c, profile.loadSeconds);
        const after = service.cpuMs();
        cpuPerAnswer[key] = before === null || after === null ? null : (after - before) / out[key]!.ok;
      };
      for (const c of [1, 10]) {
        await measured(`echo_c${c}`, echo, c);
        await measured(`analyse_c${c}`, analyse, c);
      }
      return { out, cpuPerAnswer };
    },
  );
  const { out: loads, cpuPerAnswer } = runs;
  const [a1, e1, a10, e10] = [loads.analyse_c1!, loads.echo_c1!, loads.analyse_c10!, loads.echo_c10!];
  const [cpuA1, cpuE1] = [cpuPerAnswer.analyse_c1 ?? null, cpuPerAnswer.echo_c1 ?? null];
  const refused = a10.statuses["503"] ?? 0;
  const total10 = Object.values(a10.statuses).reduce((a, b) => a + b, 0);
  return {
    name: "http_overhead",
    value: a1.p50,
    unit: "ms",
    baseline: e1.p50,
    ratio: ratioOf(a1.p50, e1.p50),
    headline: `${Math.round(a10.rps)} analyses/s at c=10; information: the p50 and throughput targets sat below the frameworks' floor`,
    description: `offline analysis of the sample request (4 artifacts, ~2k metric rows, ${Math.round(body.length / 1024)} KB) over real HTTP against the service process (dist/server/main.js, as npm start runs it), autocannon ${profile.loadSeconds} s per run: p50 latency at concurrency 1`,
    baselineDescription: "an Express handler in the same process that parses (express.json) and echoes the same body",
    note: `At concurrency 10 (the 10-analysis limit exactly) ${refused} of ${total10} answers were 503${a10.errors + a10.timeouts > 0 ? `, ${a10.errors} errors, ${a10.timeouts} timeouts` : ""}; latencies count 2xx answers only.`,
    rows: [
      row("p50 latency, concurrency 1", "ms", a1.p50, e1.p50),
      row("p99 latency, concurrency 1", "ms", a1.p99, e1.p99),
      row("throughput, concurrency 1", "req/s", a1.rps, e1.rps),
      row("p50 latency, concurrency 10", "ms", a10.p50, e10.p50),
      row("p99 latency, concurrency 10", "ms", a10.p99, e10.p99),
      { ...row("throughput, concurrency 10", "req/s", a10.rps, e10.rps), inTable: true },
      { metric: "503 answers at concurrency 10", value: refused, unit: "" },
      { metric: "service CPU per answer, concurrency 1", value: cpuA1, unit: "ms", baseline: cpuE1, ratio: ratioOf(cpuA1, cpuE1) },
    ],
    detail: { runs: loads, cpu_ms_per_answer: cpuPerAnswer },
  };
}
