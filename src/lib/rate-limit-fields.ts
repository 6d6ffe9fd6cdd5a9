import type { RateClass } from "../domain/rate-limits";
import type { WindowDecision } from "./rate-limit-windows";

/** The draft whose syntax the RateLimit fields follow (docs/decisions/rate-limits.md). */
export const RATE_LIMIT_DRAFT = "draft-ietf-httpapi-ratelimit-headers-11";

/** Methods that only read; every other method changes something. */
const READ_METHODS = new Set(["GET", "HEAD"]);

/**
 * The class an operation's requests are counted in, from its method and its path under the
 * API prefix: a template (`/videos/{video_id}/upload`) or a concrete path
 * (`/videos/vid_…/upload`) gives the same answer, so the OpenAPI document states what the
 * middleware counts. Total by construction: a new operation falls in a class whatever it is.
 */
export function operationClass(method: string, path: string): RateClass {
  const verb = method.toUpperCase();
  const [first, id, part] = path.split("/").filter((segment) => segment !== "");
  if (verb === "POST" && first === "search" && id === undefined) return "search";
  if (!READ_METHODS.has(verb) && first === "videos") {
    // Opening an upload session, everything an upload does after it, and a caption file.
    if (id === undefined && verb === "POST") return "uploads";
    if (part === "upload" || (part === "captions" && verb === "PUT")) return "uploads";
  }
  return READ_METHODS.has(verb) ? "reads" : "writes";
}

/**
 * `RateLimit-Policy` and `RateLimit` as the draft writes them (Structured Field Lists of one
 * item named after the class): the quota `q` per window `w`, then what is left `r` and the
 * seconds `t` until the window ends.
 */
export function rateLimitFields(
  rateClass: RateClass,
  limit: number,
  windowSeconds: number,
  decision: WindowDecision,
): Record<string, string> {
  return {
    "RateLimit-Policy": `"${rateClass}";q=${limit};w=${windowSeconds}`,
    RateLimit: `"${rateClass}";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
}
