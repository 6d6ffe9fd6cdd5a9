/**
 * Call slots of one rate limit, shared fairly between tenants. Time is cut into slots one call
 * long at the paced rate; a reservation takes the first free slot at or after now. A tenant may
 * hold only so many slots ahead at once (about two of its callers' polling intervals' worth):
 * past that it is told to come back, so a tenant with fifty calls waiting cannot book the next
 * fifty slots and push a tenant with one call behind all of them, yet a lone tenant can still
 * use the whole rate.
 */
export class FairSlots {
  /** Reserved slot → tenant, for slots not yet past. */
  private readonly taken = new Map<number, string>();

  private readonly perTenant: number;

  /**
   * @param slotMs one call's share of the rate (60,000 / calls a minute)
   * @param pollMs how long a refused caller waits before asking again
   */
  constructor(
    private readonly slotMs: number,
    pollMs = 1000,
  ) {
    this.perTenant = Math.max(4, Math.ceil((2 * pollMs) / slotMs) + 1);
  }

  /**
   * Wait in ms for the reserved slot; null when none can be promised within `maxWaitMs` or the
   * tenant already holds its share ahead (the caller asks again once a slot has passed).
   */
  reserve(tenant: string, now: number, maxWaitMs: number): number | null {
    const current = Math.floor(now / this.slotMs);
    let held = 0;
    for (const [slot, owner] of this.taken) {
      if (slot < current) this.taken.delete(slot);
      else if (owner === tenant) held++;
    }
    if (held >= this.perTenant) return null;
    let slot = current;
    while (this.taken.has(slot)) slot++;
    const wait = Math.max(0, slot * this.slotMs - now);
    if (wait > maxWaitMs) return null;
    this.taken.set(slot, tenant);
    return wait;
  }
}
