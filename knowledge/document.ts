import { z } from "zod";

/** Where a document applies; `global` is advice that spans the others. */
export const DOMAINS = ["training", "data_quality", "architecture", "optimization", "global"] as const;
export const DomainSchema = z.enum(DOMAINS);
export type Domain = z.infer<typeof DomainSchema>;

/** What kind of question a document answers. */
export const QUERY_TYPES = ["best_practice", "diagnostic", "solution", "validation"] as const;
export const QueryTypeSchema = z.enum(QUERY_TYPES);
export type QueryType = z.infer<typeof QueryTypeSchema>;

/** One published source a document rests on. */
export const SourceSchema = z
  .object({
    title: z.string().min(1),
    authors: z.string().min(1).optional(),
    organization: z.string().min(1).optional(),
    year: z.number().int().min(1900).max(2100),
    url: z.url({ protocol: /^https?$/ }),
  })
  .strict()
  .refine((s) => s.authors !== undefined || s.organization !== undefined, {
    message: "a source needs `authors` or `organization`",
  });
export type Source = z.infer<typeof SourceSchema>;

/** Finding ids look like `<kind>.<snake_case>`, e.g. `training.overfitting`. */
const FINDING_ID = /^[a-z]+\.[a-z0-9_]+$/;

/** The front matter of a corpus document (docs/knowledge.md). */
export const FrontMatterSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "kebab-case"),
    title: z.string().min(1),
    domain: DomainSchema,
    query_type: QueryTypeSchema,
    tags: z.array(z.string().min(1)).min(1),
    detectors: z.array(z.string().regex(FINDING_ID, "a finding id like training.overfitting")),
    sources: z.array(SourceSchema).min(1),
  })
  .strict();
export type FrontMatter = z.infer<typeof FrontMatterSchema>;

/** A corpus document: its front matter, its body, and the short snippet cited in responses. */
export interface KnowledgeDocument extends FrontMatter {
  body: string;
  snippet: string;
}

/** "Authors or organization (year). Title." for one source. */
export function sourceLine(source: Source): string {
  return `${source.authors ?? source.organization} (${source.year}). ${source.title}.`;
}
