import { describe, expect, it } from "vitest";
import { normalizeLanguage } from "../../../artifacts/language.js";

describe("normalizeLanguage", () => {
  it.each([
    ["english", "en", "English"],
    ["English", "en", "English"],
    ["French", "fr", "French"],
    ["fr", "fr", "French"],
    ["pt-BR", "pt-BR", "Portuguese (BR)"],
    ["de_at", "de-AT", "German (AT)"],
  ])("%s → %s", (input, code, name) => {
    expect(normalizeLanguage(input)).toEqual({ code, name });
  });

  it("defaults to English when missing or blank", () => {
    expect(normalizeLanguage(undefined).code).toBe("en");
    expect(normalizeLanguage("  ").code).toBe("en");
  });

  it("keeps an unknown language as given so a model can still follow it", () => {
    expect(normalizeLanguage("Klingon")).toEqual({ code: "klingon", name: "Klingon" });
  });
});
