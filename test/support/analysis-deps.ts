import { loadServiceSettings } from "../../config/env.js";
import { createLogger } from "../../config/logger.js";
import type { AnalysisDeps } from "../../graph/context.js";
import { Deadline } from "../../graph/deadline.js";
import type { KnowledgePort } from "../../knowledge/port.js";

/** Knowledge that cites nothing; optionally waits on a gate per call (to hold analyses open in tests). */
export function passThroughKnowledge(gate?: () => Promise<void>): KnowledgePort {
  return {
    citeFindings: async (findings) => {
      if (gate) await gate();
      return findings;
    },
    describe: () => [],
  };
}

/** A gate tests open when they choose; every waiter before and after opening passes. */
export function createGate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let waiting = 0;
  return {
    wait: async () => {
      waiting++;
      await opened;
    },
    open: () => open(),
    get waiting() {
      return waiting;
    },
  };
}

/** Deterministic-mode deps for graph tests. */
export function testDeps(overrides: Partial<AnalysisDeps> = {}): AnalysisDeps {
  return {
    settings: loadServiceSettings({}),
    logger: createLogger("silent"),
    knowledge: passThroughKnowledge(),
    llm: null,
    analyzerSlots: null,
    deadline: new Deadline(),
    workspace: null,
    ...overrides,
  };
}
