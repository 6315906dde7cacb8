import type { BenchProfile } from "../lib/options.js";
import type { BenchResult } from "../lib/result.js";
import { benchHistoryScaling } from "./history-scaling.js";
import { benchHttpOverhead } from "./http-overhead.js";
import { benchStartup } from "./startup.js";

/** One benchmark of `npm run bench`; the name is the result's name and never changes. */
export interface Suite {
  name: string;
  unit: string;
  description: string;
  run(profile: BenchProfile): Promise<BenchResult>;
}

/** Every benchmark, in the order they run. */
export const SUITES: Suite[] = [
  { name: "startup", unit: "ms", description: "time from process start to /readyz answering 200", run: benchStartup },
  { name: "http_overhead", unit: "ms", description: "analysis latency over real HTTP next to an echo handler", run: benchHttpOverhead },
  { name: "history_scaling", unit: "ms", description: "offline analysis of large training histories", run: benchHistoryScaling },
];
