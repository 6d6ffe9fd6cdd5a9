/**
 * Call slots of one rate limit, shared fairly between tenants. Time is cut into slots one call
 * long at the paced rate; a reservation takes the first free slot at or after now. A tenant may
 * hold at most `perTenant` slots ahead at once: past that it is told to come back, so a tenant
 * with fifty calls waiting cannot book the next fifty slots and push a tenant with one call
 * behind all of them; the small one's call lands within a few slots.
 */
export class FairSlots {
  /** Reserved slot → tenant, for slots not yet past. */
  private readonly taken = new Map<number, string>();

  /**
   * @param slotMs one call's share of the rate (60,000 / calls a minute)
   * @param perTenant slots one tenant may hold ahead of now
   */
  constructor(
    private readonly slotMs: number,
    private readonly perTenant = 4,
  ) {}

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
