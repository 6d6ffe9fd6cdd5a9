import { z } from "@hono/zod-openapi";

/** An ISO 8601 date-time string. */
export const TimestampSchema = z.iso
  .datetime({ offset: true })
  .openapi({ format: "date-time", example: "2026-11-21T09:30:00.000Z" });

/** The async error object of videos and runs: `code`, `title`, `detail`, `next_action`. */
export const AsyncErrorSchema = z
  .object({
    code: z.string().openapi({ example: "corrupt-media" }),
    title: z.string().openapi({ example: "The file could not be read" }),
    detail: z.string().openapi({ example: "The container's moov box is truncated." }),
    next_action: z.string().openapi({ example: "Re-export the video and upload it again." }),
  })
  .openapi("AsyncError");

/** A path parameter holding an identifier. */
export function idParam(name: string, example: string) {
  return z
    .string()
    .min(1)
    .max(128)
    .openapi({ param: { name, in: "path" }, example });
}

/** `true` only when A and B are the same type: a schema's inferred type and its presenter's. */
export type SameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Why a read withholds a text or link: the video it came from was deleted. */
export const RedactedSchema = z.enum(["source_deleted"]).openapi({
  description:
    "Present when the video this came from was deleted: its quoted text reads as the redaction marker and no media URL is given",
  example: "source_deleted",
});
