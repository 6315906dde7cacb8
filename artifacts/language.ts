/** An output language: its BCP 47 code and English name (what prompts say). */
export interface Language {
  code: string;
  name: string;
}

export const ENGLISH: Language = { code: "en", name: "English" };

const NAMES: Record<string, string> = {
  en: "English", fr: "French", de: "German", es: "Spanish", it: "Italian", pt: "Portuguese", nl: "Dutch",
  pl: "Polish", ru: "Russian", uk: "Ukrainian", tr: "Turkish", ar: "Arabic", he: "Hebrew", hi: "Hindi",
  zh: "Chinese", ja: "Japanese", ko: "Korean", vi: "Vietnamese", th: "Thai", id: "Indonesian", sv: "Swedish",
  da: "Danish", no: "Norwegian", fi: "Finnish", cs: "Czech", el: "Greek", hu: "Hungarian", ro: "Romanian",
};
const CODES_BY_NAME = new Map(Object.entries(NAMES).map(([code, name]) => [name.toLowerCase(), code]));

/**
 * Accepts a language name or code in any case ("english", "French", "fr", "pt-BR"); unknown text is kept as
 * given so a model can still follow it. Missing means English.
 */
export function normalizeLanguage(input: string | null | undefined): Language {
  const text = input?.trim();
  if (!text) return ENGLISH;
  const lower = text.toLowerCase();
  const byName = CODES_BY_NAME.get(lower);
  if (byName) return { code: byName, name: NAMES[byName]! };
  const match = /^([a-z]{2,3})(?:[-_]([a-z0-9]{2,8}))?$/i.exec(text);
  if (match) {
    const base = match[1]!.toLowerCase();
    const region = match[2] ? `-${match[2].toUpperCase()}` : "";
    const name = NAMES[base];
    if (name) return { code: base + region, name: region ? `${name} (${match[2]!.toUpperCase()})` : name };
  }
  return { code: lower, name: text };
}
