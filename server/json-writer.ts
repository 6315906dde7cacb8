import type { Express, Response } from "express";
import type { Redactor } from "./redaction.js";

/** Serializes a value as every JSON answer is written; undefined for undefined, as JSON.stringify. */
export type JsonWriter = (value: unknown) => string;

/**
 * How every JSON answer is written (results, error bodies, SSE events, stored job results): a bigint as a
 * number, and the configured secrets removed by value wherever an upstream echoed them (an LLM gateway's error
 * body quoting the Authorization header).
 *
 * The value is written plainly first: a replacer keeps V8 off its fast serializer (a 60 KB analysis answer
 * ~0.47 against ~0.30 ms), and it changes nothing unless the value holds a bigint (which JSON.stringify refuses)
 * or a configured secret shows in the text; only then is it written again through the replacer.
 */
export function jsonWriter(redactor: Redactor): JsonWriter {
  const replacer = (_key: string, value: unknown) => (typeof value === "bigint" ? Number(value) : typeof value === "string" ? redactor.text(value) : value);
  const withReplacer = (value: unknown) => JSON.stringify(value, replacer);
  return (value) => {
    let text: string;
    try {
      text = JSON.stringify(value);
    } catch {
      return withReplacer(value);
    }
    return typeof text === "string" && redactor.inJson(text) ? withReplacer(value) : text;
  };
}

const SETTING = "json writer";

/**
 * Makes `writer` how this app writes JSON: its res.json (Express's own takes only a replacer, see above), and the
 * SSE events and in-band errors that read it back with appJsonWriter, so a `result` event is byte for byte what
 * res.json sends. `app.response` is the app's own prototype of its responses (an app mounted in it inherits it).
 */
export function useJsonWriter(app: Express, writer: JsonWriter): void {
  app.set(SETTING, writer);
  app.response.json = function json(this: Response, body: unknown) {
    // As Express's res.json: a content type set before (problem+json on errors) is kept.
    if (!this.get("Content-Type")) this.set("Content-Type", "application/json");
    return this.send(writer(body));
  };
}

/** The JSON writer of the response's app (useJsonWriter), or plain JSON.stringify in an app without one. */
export function appJsonWriter(res: Response): JsonWriter {
  return (res.app.get(SETTING) as JsonWriter | undefined) ?? JSON.stringify;
}
