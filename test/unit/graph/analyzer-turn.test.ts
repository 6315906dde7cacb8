import { describe, expect, it } from "vitest";
import { analyzerTurn } from "../../../nodes/analyzer-turn.js";

/** Starts analyzers in the given order (all at once, as a graph's superstep does) and records when each gets its turn. */
async function turnsOf(started: Array<[analysis: object, name: string]>): Promise<string[]> {
  const order: string[] = [];
  await Promise.all(started.map(([analysis, name]) => analyzerTurn(analysis).then(() => order.push(name))));
  return order;
}

describe("analyzerTurn", () => {
  it("gives the analyzers of one analysis their turns in the order they started", async () => {
    const analysis = {};
    expect(await turnsOf([[analysis, "dataset"], [analysis, "checks"], [analysis, "training"]])).toEqual(["dataset", "checks", "training"]);
  });

  it("runs every analysis's first analyzer before any analysis's second, whatever the order they started in", async () => {
    const a = {};
    const b = {};
    const order = await turnsOf([[a, "a.dataset"], [a, "a.checks"], [a, "a.training"], [b, "b.dataset"], [b, "b.checks"]]);
    expect(order).toEqual(["a.dataset", "b.dataset", "a.checks", "b.checks", "a.training"]);
  });

  it("grants turns a few turns of the event loop apart, so what came due meanwhile (timers, I/O) runs between two", async () => {
    const order: string[] = [];
    const a = {};
    const b = {};
    await Promise.all([
      analyzerTurn(a).then(() => {
        order.push("a");
        setTimeout(() => order.push("timer"), 0);
        // A deterministic stage that outlasts the timer's millisecond: the timer is due before the next turn.
        const until = performance.now() + 5;
        while (performance.now() < until);
      }),
      analyzerTurn(b).then(() => order.push("b")),
    ]);
    expect(order).toEqual(["a", "timer", "b"]);
  });

  it("gives an analyzer that starts once the others had their turns the next turn (the next wave's first)", async () => {
    const analysis = {};
    await turnsOf([[analysis, "dataset"], [analysis, "checks"], [analysis, "training"]]);
    const other = {};
    const order = await turnsOf([[other, "other.dataset"], [other, "other.checks"], [analysis, "checkpoint"]]);
    expect(order).toEqual(["other.dataset", "checkpoint", "other.checks"]);
  });
});
