import { DurableObject } from "cloudflare:workers";
import { RATE_WINDOW_SECONDS, type RateClass } from "../domain/rate-limits";
import type { Env } from "../env";
import { FixedWindows, type WindowDecision } from "../lib/rate-limit-windows";

/**
 * One object per workspace (`getByName(workspace_id)`) counts its API requests per operation
 * class, so the answer is exact for the whole deployment and can say what is left. Counts live
 * in memory only: an object that restarts (a deploy, eviction after idling) forgets at most
 * one window's counts, erring towards letting requests through, and no request waits on a
 * storage write (docs/decisions/rate-limits.md).
 */
export class WorkspaceRateLimiter extends DurableObject<Env> {
  private readonly windows = new FixedWindows();

  /** Counts one request of `rateClass` against `limit` per window; the caller's quota decides. */
  take(rateClass: RateClass, limit: number): WindowDecision {
    return this.windows.take(rateClass, limit, RATE_WINDOW_SECONDS * 1000, Date.now());
  }
}
