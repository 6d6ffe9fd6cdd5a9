import { z } from "@hono/zod-openapi";

/** What a run used (`usage` in the spec's Run section), for analysis and workflow runs alike. */
export const RunUsageSchema = z
  .object({
    cached_input_tokens: z.number(),
    input_tokens: z.number(),
    output_tokens: z.number(),
    total_tokens: z.number(),
    media_seconds: z.number(),
    model_calls: z.number().int().optional().openapi({
      description:
        "Model calls the run's steps made (the answer model; none for the local rules); absent on runs finished before it was recorded",
      example: 3,
    }),
    provider_returned_cost: z.string(),
  })
  .openapi("RunUsage");
