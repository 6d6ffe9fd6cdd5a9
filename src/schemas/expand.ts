import { z } from "@hono/zod-openapi";
import { invalidRequest } from "../errors/api-error";

/** Expand values recognised across run and report reads (the spec's Runs section). */
export const EXPAND_VALUES = [
  "events",
  "events.evidence",
  "evidence",
  "provenance",
  "snapshots",
  "content",
  "manifest",
] as const;
/** One expand value. */
export type ExpandValue = (typeof EXPAND_VALUES)[number];
/** Expand paths may have at most this many segments (the spec's Limits section). */
export const EXPAND_MAX_DEPTH = 2;

/** The `expand[]` query parameter, documented as an array. */
export function expandQuerySchema(allowed: readonly ExpandValue[]) {
  return z
    .union([z.string(), z.array(z.string())])
    .optional()
    .openapi({
      param: { name: "expand[]", in: "query", style: "form", explode: true },
      description: `Related data to include: ${allowed.map((v) => `\`${v}\``).join(", ")}. At most ${EXPAND_MAX_DEPTH} path segments.`,
      type: "array",
      items: { type: "string", enum: [...allowed] },
    });
}

/**
 * Reads `expand[]` (repeated) from a request URL. Paths deeper than two segments, values the
 * API does not know, and values this endpoint does not offer answer 400 naming `expand[]`.
 */
export function parseExpand(url: string, allowed: readonly ExpandValue[]): Set<ExpandValue> {
  const values = new URL(url).searchParams.getAll("expand[]").flatMap((value) => value.split(","));
  const expand = new Set<ExpandValue>();
  for (const raw of values) {
    const value = raw.trim();
    if (value.split(".").length > EXPAND_MAX_DEPTH) {
      throw invalidRequest([
        {
          path: "expand[]",
          message: `"${value}" is deeper than ${EXPAND_MAX_DEPTH} path segments`,
        },
      ]);
    }
    if (!(allowed as readonly string[]).includes(value)) {
      throw invalidRequest([
        {
          path: "expand[]",
          message: `"${value}" cannot be expanded here; use ${allowed.map((v) => `"${v}"`).join(" or ")}`,
        },
      ]);
    }
    expand.add(value as ExpandValue);
  }
  return expand;
}
