import type { z } from "zod";
import { ClientError } from "../errors.js";

/**
 * The service's successful answer read as `schema`; an answer that is not JSON or not that shape (a proxy's page,
 * another server on that port) is a SERVICE_ERROR that asks whether --server is the diagnosis service.
 */
export function parseAnswer<S extends z.ZodTypeAny>(body: string, schema: S, what: string): z.infer<S> {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new ClientError("SERVICE_ERROR", `the answer is not JSON, so not ${what} (it starts '${body.slice(0, 60).replace(/\s+/g, " ")}'); is --server pointing at the diagnosis service?`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ClientError("SERVICE_ERROR", `the service's answer is not ${what} (${parsed.error.issues[0]?.message}); is --server pointing at the diagnosis service?`);
  return parsed.data;
}
