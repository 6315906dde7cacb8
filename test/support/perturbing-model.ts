import { anchorNamesOf } from "../../llm/grounding/evidence.js";
import { type ChatRequestBody, type FakeReply, modelAnswer, requestInput, requestLanguage } from "./fake-openai.js";
import { Prng } from "./prng.js";

/** One sentence the perturbing model wrote: the number it states and whether that number was changed. */
export interface StatedSentence {
  sentence: string;
  /** The number as given, written the same way (what a changed number was changed from). */
  given: string;
  perturbed: boolean;
  /** The value given, an integer or not. */
  integer: boolean;
  /**
   * A changed number that, as written, equals another value of its field in the item the sentence names (in any
   * item when it names none; of any field, unnamed): no check by value can tell.
   */
  collides: boolean;
}

/**
 * How each language writes "for <item>, the value of <key> is <number>." and its number marks. The item is the
 * one the number belongs to (a finding, a series, a tensor, a check, a recommendation's finding), named as a
 * model explaining a number names it; a number of no item is stated without one.
 */
const STYLE: Record<string, { sentence: (key: string, n: string, tag: string) => string; item: string; at: string; decimal: string; group: string }> = {
  en: { sentence: (k, n, t) => `the value of ${k} stands at ${n} (${t}).`, item: "For", at: "at step", decimal: ".", group: "," },
  fr: { sentence: (k, n, t) => `la valeur de ${k} s'établit à ${n} (${t}).`, item: "Pour", at: "à l'étape", decimal: ",", group: "\u202f" },
  es: { sentence: (k, n, t) => `el valor de ${k} se sitúa en ${n} (${t}).`, item: "Para", at: "en el paso", decimal: ",", group: "." },
};

/**
 * The sentence, opened by the item it speaks of when there is one; a value of a point is put at its position
 * ("stands at 0.943 at step 7"), as a model quoting a point of a curve writes it.
 */
function stating(style: (typeof STYLE)[string], item: string | null, key: string, n: string, position: string | null, tag: string): string {
  const body = style.sentence(key, position === null ? n : `${n} ${style.at} ${position}`, tag);
  return item ? `${style.item} ${item}, ${body}` : body.charAt(0).toUpperCase() + body.slice(1);
}

/** A number the way a model writes one: at most 4 significant digits, grouped thousands, the language's marks. */
export function formatNumber(value: number, language: string): string {
  const style = STYLE[language] ?? STYLE.en!;
  const abs = Math.abs(value);
  const text = Number.isInteger(value) || abs >= 1e4 ? String(Math.round(value)) : String(Number(value.toPrecision(4)));
  if (/e/i.test(text)) return text.replace(".", style.decimal);
  const [int, frac] = text.split(".");
  const grouped = int!.replace(/\B(?=(\d{3})+(?!\d))/g, style.group);
  return frac ? `${grouped}${style.decimal}${frac}` : grouped;
}

/** A value changed by a factor between 1.1 and 3 either way; integers stay integers and always change. */
export function perturb(value: number, rng: Prng): number {
  const factor = rng.logUniform(1.1, 3) ** (rng.chance(0.5) ? 1 : -1);
  if (Number.isInteger(value)) {
    const changed = Math.round(value * factor);
    return changed === value ? value + (rng.chance(0.5) || value === 0 ? 1 : -1) : changed;
  }
  return value * factor;
}

/**
 * A number of the model's input: the field it sits under, the nearest item that holds it (null: none) and, for
 * the value of a pair of numbers ([step, value] points, a window's [start, end]), the position it is paired with.
 */
type Named = [key: string, value: number, item: string | null, position: number | null];

/** Named numbers of the model's input: findings' evidence first (what a model quotes), then the rest. */
function namedNumbers(input: unknown): Named[] {
  const out: Named[] = [];
  const walk = (v: unknown, key: string, item: string | null) => {
    if (typeof v === "number" && Number.isFinite(v)) out.push([key, v, item, null]);
    else if (Array.isArray(v) && v.length === 2 && Number.isInteger(v[0]) && typeof v[1] === "number" && Number.isFinite(v[1])) out.push([key, v[1], item, v[0]]);
    else if (Array.isArray(v)) for (const x of v) walk(x, key, item);
    else if (v && typeof v === "object") {
      const own = anchorNamesOf(v as Record<string, unknown>)[0] ?? item;
      for (const [k, x] of Object.entries(v)) walk(x, /^\d+$/.test(k) ? key : k, own);
    }
  };
  const obj = (input ?? {}) as Record<string, unknown>;
  walk(obj.findings, "value", null);
  walk(obj.cross_findings, "value", null);
  walk(obj.recommendations, "value", null);
  walk(obj.digest, "value", null);
  return out;
}

const letters = (i: number) => {
  let s = "";
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(97 + ((n - 1) % 26)) + s;
  return `ref ${s}`;
};

/**
 * A model that states numbers it was given, a share `k` of them changed (seeded), one number per sentence, each
 * opened by the item it belongs to unless `nameItems` is false (the sentences measured before items were named),
 * added to the well-behaved answer: review summaries and finding descriptions, the cross-artifact summary, the
 * advice. Every sentence written is logged, so a measurement can see which ones the response kept.
 */
export function perturbingModel(k: number, seed: number, perAnswer = 12, nameItems = true) {
  const rng = new Prng(seed);
  const written: StatedSentence[] = [];
  const script = (body: ChatRequestBody): FakeReply => {
    const reply = modelAnswer(body);
    if (!reply.content) return reply;
    const language = requestLanguage(body)?.code ?? "en";
    const style = STYLE[language] ?? STYLE.en!;
    const numbers = namedNumbers(requestInput(body));
    const picked = numbers.length <= perAnswer ? numbers : Array.from({ length: perAnswer }, () => rng.pick(numbers));
    const sentences = picked.map(([key, value, item, position]) => {
      const perturbed = rng.chance(k);
      const named = nameItems ? item : null;
      // Of a point, the value or the position is changed; the sentence states both.
      const changePosition = perturbed && position !== null && rng.chance(0.5);
      const change = changePosition ? position! : value;
      const shown = (v: number) => (changePosition ? String(v) : formatNumber(v, language));
      let changed = perturbed ? perturb(change, rng) : change;
      // A change the written precision hides is no change: perturb again until it shows; nor is a point changed
      // into another point of the same field and item (a flat curve is 0.943 at step 7 and at step 11).
      const samePoint = (v: number) => {
        const [p, x] = changePosition ? [v, value] : [position, v];
        return numbers.some(([k, vv, i, pp]) => k === key && (named === null || i === item) && pp === p && formatNumber(vv, language) === formatNumber(x, language));
      };
      for (let tries = 0; perturbed && (shown(changed) === shown(change) || (position !== null && tries < 20 && samePoint(changed))); tries++) changed = perturb(changed, rng);
      const statedValue = changePosition ? value : changed;
      const statedPosition = position === null ? null : changePosition ? changed : position;
      const text = formatNumber(statedValue, language);
      const sentence = stating(style, named, key, text, statedPosition === null ? null : String(statedPosition), letters(written.length));
      // An unnamed number ("value") names no field: any value given is then a collision; a point collides with
      // another point of its field and item.
      const collides =
        perturbed &&
        (position === null
          ? numbers.some(([k, v, i]) => (k === key || key === "value") && (named === null || i === named) && formatNumber(v, language) === text)
          : samePoint(changed));
      written.push({ sentence, given: changePosition ? `step ${position}` : formatNumber(value, language), perturbed, integer: Number.isInteger(value), collides });
      return sentence;
    });
    const answer = JSON.parse(reply.content) as Record<string, unknown> & { findings?: Array<{ description: string }> };
    const targets = answer.findings?.length ? answer.findings : null;
    if (typeof answer.summary === "string" && targets) {
      // Three sentences per reviewed finding (its description has room for them), the rest in the summary.
      sentences.forEach((s, i) => {
        const f = targets[Math.floor(i / 3)];
        if (f) f.description = `${f.description} ${s}`;
        else answer.summary = `${String(answer.summary)} ${s}`;
      });
    } else if (typeof answer.summary === "string") answer.summary = `${answer.summary} ${sentences.join(" ")}`;
    else if (typeof answer.advice === "string") answer.advice = `${answer.advice} ${sentences.join(" ")}`;
    return { content: JSON.stringify(answer) };
  };
  return { script, written };
}
