import { z } from "@hono/zod-openapi";
import { ERROR_CODES, type ErrorCode } from "../errors/codes";

const codes = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/** RFC 9457 problem document (the spec's decisions on errors). */
export const ProblemSchema = z
  .object({
    type: z.string().openapi({
      description: "URI reference of the problem type",
      example: "/problems/invalid-request",
    }),
    title: z.string().openapi({
      description: "Short summary of the problem type",
      example: "The request is invalid",
    }),
    status: z.number().int().openapi({ description: "HTTP status", example: 400 }),
    detail: z.string().openapi({
      description: "What went wrong in this request",
      example: "limit must be between 1 and 100.",
    }),
    code: z
      .enum(codes)
      .openapi({ description: "Stable machine-readable code", example: "invalid-request" }),
    instance: z
      .string()
      .optional()
      .openapi({ description: "Path of the request", example: "/api/v1alpha1/videos" }),
    request_id: z
      .string()
      .optional()
      .openapi({ description: "Id of the request, also in X-Request-Id" }),
    errors: z
      .array(
        z.object({
          path: z.string().openapi({ description: "The field at fault", example: "limit" }),
          message: z.string().openapi({
            description: "Why it is invalid, to be read after the field's name",
            example: "must be between 1 and 100",
          }),
        }),
      )
      .optional()
      .openapi({ description: "Field-level failures (400 only)" }),
  })
  .openapi("Problem");
