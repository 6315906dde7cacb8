import { describe, expect, it } from "vitest";
import { parseTolerantJson } from "../../artifacts/tolerant-json.js";
import { stringifyRequest } from "../../client/request/json.js";

describe("stringifyRequest", () => {
  it("keeps NaN and ±Infinity as the bare tokens the service reads, where JSON.stringify writes null", () => {
    const value = { loss: [0.7, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY], note: "NaN stays a string", n: { m: Number.NaN } };
    const text = stringifyRequest(value);
    expect(text).toBe('{"loss":[0.7,NaN,Infinity,-Infinity],"note":"NaN stays a string","n":{"m":NaN}}');
    expect(parseTolerantJson(text)).toEqual(value);
    expect(stringifyRequest({ a: Number.NaN }, 2)).toBe('{\n  "a": NaN\n}');
  });
});
