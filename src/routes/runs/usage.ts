import { z } from "@hono/zod-openapi";

/** What a run used (spec 2.1 `usage`), for analysis and workflow runs alike. */
export const RunUsageSchema = z
  .object({
    cached_input_tokens: z.number(),
    input_tokens: z.number(),
    output_tokens: z.number(),
    total_tokens: z.number(),
    media_seconds: z.number(),
    provider_returned_cost: z.string(),
  })
  .openapi("RunUsage");
