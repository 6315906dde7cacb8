import { Router } from "express";
import { z } from "zod";
import { DomainSchema, QueryTypeSchema } from "../../knowledge/document.js";
import { DEFAULT_LIMIT, type KnowledgeService } from "../../knowledge/knowledge-base.js";
import { ServiceError } from "../errors.js";

const MAX_QUERY_CHARS = 1000;

/** Query parameters of GET /v1/knowledge. */
export const KnowledgeQueryParamsSchema = z
  .object({
    q: z.string().trim().min(1, "required, the text to search for").max(MAX_QUERY_CHARS),
    domain: DomainSchema.optional(),
    type: QueryTypeSchema.optional(),
    limit: z.coerce.number().int().min(1).max(50).default(DEFAULT_LIMIT),
  })
  .strict();

/** First value of a repeated query parameter is not guessed: repeats are an error. */
function singleValues(query: Record<string, unknown>): Record<string, unknown> {
  for (const [name, value] of Object.entries(query)) {
    if (typeof value !== "string") throw new ServiceError("BAD_REQUEST", 400, `${name}: give the parameter once, as text`);
  }
  return query;
}

/** GET /v1/knowledge?q=…&domain=…&type=…&limit=…: the ranked documents with their scores, for debugging retrieval. */
export function createKnowledgeRouter(knowledge: KnowledgeService): Router {
  const router = Router();
  router.get("/v1/knowledge", async (req, res) => {
    const parsed = KnowledgeQueryParamsSchema.safeParse(singleValues(req.query as Record<string, unknown>));
    if (!parsed.success) {
      const detail = parsed.error.issues
        .map((i) => (i.code === "unrecognized_keys" ? `unknown parameter ${i.keys.join(", ")}` : `${i.path.join(".")}: ${i.message}`))
        .join("; ");
      throw new ServiceError("BAD_REQUEST", 400, detail);
    }
    const { q, domain, type, limit } = parsed.data;
    const result = await knowledge.search({ q, domain, type, limit });
    res.json({ query: { q, domain: domain ?? null, type: type ?? null, limit }, mode: result.mode, documents: result.documents });
  });
  return router;
}
