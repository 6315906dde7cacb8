/** Markup that is already safe to place in a page (built by `html` or by this module's helpers). */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for an HTML element or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | readonly Interpolation[];

function interpolate(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(interpolate).join("");
  return escapeHtml(String(value));
}

/**
 * Tagged template for markup: every interpolated value is escaped unless it is SafeHtml, so text from a request
 * (dataset names, finding texts, metric names) can never become markup. Lists are joined; null/false vanish.
 */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += interpolate(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** A link target only when it is an absolute http(s) URL; anything else (javascript:, data:) yields null. */
export function safeHref(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}
