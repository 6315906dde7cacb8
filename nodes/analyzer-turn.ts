/** Per analysis (keyed by its deps object), the analyzers that have started and are waiting for their turn. */
const waiting = new WeakMap<object, number>();

/** Waiting analyzers by their place in their analysis's line (0: first of its analysis), oldest first. */
const lines: Array<Array<() => void>> = [];
let pumping = false;

/**
 * Turns of the event loop from one grant to the next. A request that arrives meanwhile has its connection
 * accepted in one, its body read in the next and its answer (a 503 when the analyses are full) written in a third,
 * so it waits for one analyzer's turn, not three; the turns in between cost microseconds when nothing is due.
 */
const LOOP_TURNS_PER_GRANT = 3;

/** Calls `fn` after `turns` turns of the event loop (each one's I/O polled). */
function afterLoopTurns(turns: number, fn: () => void): void {
  setImmediate(turns > 1 ? () => afterLoopTurns(turns - 1, fn) : fn);
}

/**
 * Grants one turn, to the oldest analyzer of the lowest place, and schedules the next grant a few turns of the
 * event loop later, so that incoming requests, refusals and model answers are handled between two grants.
 */
function grantTurn(): void {
  const next = lines.find((line) => line.length > 0)?.shift();
  if (!next) {
    pumping = false;
    return;
  }
  next();
  afterLoopTurns(LOOP_TURNS_PER_GRANT, grantTurn);
}

/**
 * Waits for an analyzer's turn to run its deterministic stage on the event loop; a turn runs through to the
 * analyzer's model request, one turn per turn of the loop. Its place is the number of analyzers of its analysis
 * already waiting when it starts, and lower places go first: in one analysis the first analyzer's call leaves
 * before the second one parses, and with several analyses at once every analysis's first analyzer goes before any
 * second one. The first answer of a wave frees the slot the next wave's analyzer waits for, so that first call is
 * on the critical path and the others are not.
 */
export async function analyzerTurn(analysis: object): Promise<void> {
  const place = waiting.get(analysis) ?? 0;
  waiting.set(analysis, place + 1);
  await new Promise<void>((granted) => {
    (lines[place] ??= []).push(granted);
    if (pumping) return;
    pumping = true;
    setImmediate(grantTurn);
  });
  waiting.set(analysis, (waiting.get(analysis) ?? 1) - 1);
}
