import { describe, expect, it } from "vitest";
import { paramFlag, paramNumber, paramText } from "../../../nodes/training/params.js";
import { Prng } from "../../support/prng.js";

/** The lookup as defined: the exact name, else the first key equal to it or ending in ".name" or "/name", any case. */
function definedLookup(params: Record<string, string>, name: string): string | undefined {
  if (name in params) return params[name];
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(params)) {
    const key = k.toLowerCase();
    if (key === lower || key.endsWith(`.${lower}`) || key.endsWith(`/${lower}`)) return v;
  }
  return undefined;
}

const PARTS = ["lr", "LR", "max_steps", "trainer", "optimizer", "Optimizer", "steps", "x", "", "lr.", "a/b"];
const SEPARATORS = [".", "/", "_", ""];
const VALUES = ["0.1", "1e-3", "True", "false", "None", " ", "", "7", "abc"];

function randomKey(rng: Prng): string {
  let key = rng.pick(PARTS);
  for (let i = rng.int(0, 3); i > 0; i--) key += rng.pick(SEPARATORS) + rng.pick(PARTS);
  return key;
}

describe("params lookup", () => {
  it("finds what the definition finds, on 3,000 random params and names (nested keys, case, separators)", () => {
    const rng = new Prng(18);
    for (let t = 0; t < 3000; t++) {
      const params: Record<string, string> = {};
      for (let i = rng.int(0, 8); i > 0; i--) params[randomKey(rng)] = rng.pick(VALUES);
      const name = randomKey(rng);
      const expected = definedLookup(params, name);
      const text = expected !== undefined && expected.trim() !== "" && expected !== "None" ? expected : null;
      expect(paramText(params, name), JSON.stringify({ params, name })).toBe(text);
      const n = expected === undefined ? Number.NaN : Number(expected.trim());
      expect(paramNumber(params, name)).toBe(expected !== undefined && expected.trim() !== "" && Number.isFinite(n) ? n : null);
      const flag = expected?.trim().toLowerCase();
      expect(paramFlag(params, name)).toBe(flag === undefined ? null : ["true", "1", "yes", "on"].includes(flag) ? true : ["false", "0", "no", "off", "none", ""].includes(flag) ? false : null);
    }
  });

  it("takes the first matching key in order and matches any case", () => {
    const params = { "optimizer.LR": "0.1", "scheduler/lr": "0.2", lr_min: "0.3" };
    expect(paramNumber(params, "lr")).toBe(0.1);
    expect(paramNumber(params, "Lr")).toBe(0.1);
    expect(paramNumber(params, "scheduler/LR")).toBe(0.2);
    expect(paramNumber(params, "min")).toBeNull();
  });
});
