import { z } from "@hono/zod-openapi";
import { integerParam } from "./integer";

/** `cursor` and `limit`, accepted by every list (the spec's Endpoints section). */
export const PageQuerySchema = z.object({
  cursor: z
    .string()
    .min(1)
    .optional()
    .openapi({ description: "The next_cursor of the previous page, passed back unchanged" }),
  limit: integerParam(z.number().int().min(1).max(100).default(25)).openapi({
    description: "Page size, 1-100",
    example: 25,
    type: "integer",
    format: "int32",
  }),
});

/** The paged list envelope: `{ data, has_more, next_cursor }`, plus any `extra` fields. */
export function pageSchema<T extends z.ZodType, E extends z.ZodRawShape = Record<never, never>>(
  item: T,
  name: string,
  extra?: E,
) {
  return z
    .object({
      ...(extra ?? ({} as E)),
      data: z.array(item),
      has_more: z.boolean().openapi({ description: "Whether another page follows" }),
      next_cursor: z
        .string()
        .nullable()
        .openapi({ description: "Pass as `cursor` for the next page; null on the last page" }),
    })
    .openapi(name);
}
