import { describe, expect, it } from "vitest";
import { parseTolerantJson } from "../../../artifacts/tolerant-json.js";

describe("parseTolerantJson", () => {
  it("reads bare NaN, Infinity and -Infinity as numbers", () => {
    const v = parseTolerantJson('{"a": NaN, "b": [Infinity, -Infinity, 1.5], "c": {"d": NaN}}') as any;
    expect(v.a).toBeNaN();
    expect(v.b).toEqual([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1.5]);
    expect(v.c.d).toBeNaN();
  });

  it("leaves the same words inside strings alone, escaped quotes included", () => {
    const v = parseTolerantJson('{"msg": "loss is NaN \\" Infinity", "x": NaN}') as any;
    expect(v.msg).toBe('loss is NaN " Infinity');
    expect(v.x).toBeNaN();
  });

  it("parses strict JSON exactly like JSON.parse", () => {
    const text = '{"a":[1,2,{"b":"c"}],"d":null,"e":true}';
    expect(parseTolerantJson(text)).toEqual(JSON.parse(text));
  });

  it("still rejects malformed JSON", () => {
    expect(() => parseTolerantJson('{"a": NaNx}')).toThrow(SyntaxError);
    expect(() => parseTolerantJson("{")).toThrow(SyntaxError);
  });

  it("reads the Hugging Face sample with its bare NaN grad_norm", async () => {
    const { readFileSync } = await import("node:fs");
    const text = readFileSync(new URL("../../fixtures/samples/llm-finetune-hf.json", import.meta.url), "utf8");
    expect(() => JSON.parse(text)).toThrow();
    const v = parseTolerantJson(text) as any;
    const nan = v.training_artifacts.metrics.log_history.find((e: any) => e.step === 2610);
    expect(nan.grad_norm).toBeNaN();
  });
});
