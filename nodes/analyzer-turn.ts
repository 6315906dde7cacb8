import { setImmediate as nextTurn } from "node:timers/promises";

/** Per analysis (keyed by its deps object), the analyzers that have started and are waiting for their turn. */
const waiting = new WeakMap<object, number>();

/**
 * Waits for an analyzer's turn to run its deterministic stage on the event loop: one turn of the loop more than
 * the analyzers of the same analysis already waiting. A turn runs through to the analyzer's model request, so in
 * one analysis the first analyzer's call leaves before the second one parses; and with several analyses at once
 * every analysis's first analyzer runs before any second one. The first answer of a wave frees the slot the next
 * wave's analyzer waits for, so that first call is on the critical path and the others are not.
 */
export async function analyzerTurn(analysis: object): Promise<void> {
  const ahead = waiting.get(analysis) ?? 0;
  waiting.set(analysis, ahead + 1);
  for (let turn = 0; turn <= ahead; turn++) await nextTurn();
  waiting.set(analysis, (waiting.get(analysis) ?? 1) - 1);
}
