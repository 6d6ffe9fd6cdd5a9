import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { FairSlots } from "../ports/ai/fair-slots";
import { DEFAULT_CALL_POLICY } from "../ports/ai/model-calls";
import { pacedRatePerMinute, type RateGroup } from "../ports/ai/rate-limits";

/**
 * One object per rate limit of the account (`getByName(group)`): every model call of every
 * Worker takes its slot here, so the account stays under the published rate whatever the
 * number of consumers, and tenants share it fairly. Slots live in memory: an evicted object
 * forgets only reservations whose calls have already started.
 */
export class ModelRateLimiter extends DurableObject<Env> {
  private slots: FairSlots | null = null;

  /** Reserves a call slot; answers the wait in ms, or null when none is free within `maxWaitMs`. */
  reserve(group: RateGroup, tenant: string, maxWaitMs: number): number | null {
    this.slots ??= new FairSlots(
      60_000 / pacedRatePerMinute(group),
      DEFAULT_CALL_POLICY.slotPollMs,
    );
    return this.slots.reserve(tenant, Date.now(), maxWaitMs);
  }
}
